import type { Channel } from '../../shared/contract/settings';
import { type Account, api } from './api';

/** Routes a channel as Settings → Channels does. */
export async function routeChannel(
  account: Account,
  channel: Pick<Channel, 'id'>,
  routingType: 'UNASSIGNED' | 'INBOX' | 'USER',
  routingTargetId: string | null = null,
): Promise<void> {
  const res = await api(`/api/v1/channels/${channel.id}/routing`, {
    method: 'PATCH',
    token: account.tokens.accessToken,
    body: { routingType, routingTargetId },
  });
  if (res.status !== 200) throw new Error(`routing: ${JSON.stringify(res.body)}`);
}

export async function addInboxMember(account: Account, inboxId: string, userId: string): Promise<void> {
  const res = await api(`/api/v1/inboxes/${inboxId}/members`, { token: account.tokens.accessToken, body: { userId } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`add member: ${JSON.stringify(res.body)}`);
}

/** The Voice SDK identity the product gives a user (derived from the id alone). */
export const identityOf = (account: Account) => `user_${account.user.id.replaceAll('-', '_')}`;

export async function voiceToken(account: Account): Promise<string> {
  const res = await api<{ token: string }>('/api/v1/voice/token', { method: 'POST', token: account.tokens.accessToken });
  if (res.status !== 200) throw new Error(`voice token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}
