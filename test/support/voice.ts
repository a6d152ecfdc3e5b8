import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Call } from '../../shared/contract/calls';
import type { Channel } from '../../shared/contract/settings';
import { type Account, api, signUp, stack } from './api';
import { openSocket } from './realtime';
import { createInbox, withChannel } from './settings';
import { postWebhook } from './sms';
import { addTeamMember } from './team';
import { numberOf } from './twilio';

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

/** Waits until the emulator's status page lists the account's one browser device as registered. */
export async function deviceRegistered(account: Account): Promise<void> {
  const identity = identityOf(account);
  await expect
    .poll(async () => (await (await fetch(`${stack().urls.twilio}/`)).text()).includes(`${identity} (1 device)`), {
      timeout: 30_000,
    })
    .toBe(true);
}

export async function voiceToken(account: Account): Promise<string> {
  const res = await api<{ token: string }>('/api/v1/voice/token', { method: 'POST', token: account.tokens.accessToken });
  if (res.status !== 200) throw new Error(`voice token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/** A company whose voice number rings an inbox of `members` people (the owner first), each with an open socket. */
export async function voiceLine(options: { members?: number; routing?: 'INBOX' | 'USER' | 'UNASSIGNED' } = {}) {
  const owner = await signUp();
  const { provider, channel, twilio } = await withChannel(owner);
  const colleagues = await Promise.all(
    Array.from({ length: Math.max(0, (options.members ?? 1) - 1) }, (_, i) => addTeamMember(owner, { name: `Agent ${i + 2}` })),
  );
  const agents = [owner, ...colleagues];
  const inbox = await createInbox(owner, 'Support');
  for (const agent of agents) await addInboxMember(owner, inbox.id, agent.user.id);
  const routing = options.routing ?? 'INBOX';
  if (routing === 'INBOX') await routeChannel(owner, channel, 'INBOX', inbox.id);
  if (routing === 'USER') await routeChannel(owner, channel, 'USER', owner.user.id);
  const sockets = await Promise.all(agents.map((a) => openSocket(a)));
  return { owner, agents, sockets, provider, channel, twilio, inbox };
}

export async function listCalls(account: Account, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  return api<{ calls: Call[] }>(`/api/v1/calls${search ? `?${search}` : ''}`, { token: account.tokens.accessToken });
}

export const newCallSid = () => `CA${randomBytes(16).toString('hex')}`;

/** A line and the voice URLs Twilio has for its number, to post Twilio's requests as Twilio would. */
export async function signedLine(members = 2) {
  const line = await voiceLine({ members });
  const number = line.twilio.numbers.find((n) => n.phone_number === line.channel.identifier);
  if (!number) throw new Error('the channel is not a number of the account');
  const { voice_url } = await numberOf(line.twilio, number.sid);
  const post = (path: string, params: Record<string, string>) =>
    postWebhook(`${voice_url}${path}`, params, { authToken: line.twilio.authToken });
  return { ...line, voiceUrl: voice_url, post };
}

export function inboundParams(
  line: Pick<Awaited<ReturnType<typeof signedLine>>, 'twilio' | 'channel'>,
  callSid: string,
  from: string,
) {
  return {
    AccountSid: line.twilio.accountSid,
    ApiVersion: '2010-04-01',
    CallSid: callSid,
    CallStatus: 'ringing',
    Direction: 'inbound',
    From: from,
    Caller: from,
    To: line.channel.identifier,
    Called: line.channel.identifier,
  };
}
