import { describe, expect, it } from 'vitest';
import type { Channel, Inbox, InboxDetail, Provider, RoutingStrategy } from '../../shared/contract/settings';
import { type Account, api, signUp } from '../support/api';
import { createInbox, withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import { newTwilioAccount } from '../support/twilio';

/** Everything an OWNER or ADMIN sees in the settings, to show that an AGENT's attempts changed nothing. */
async function settingsOf(account: Account, inboxId: string) {
  const token = account.tokens.accessToken;
  const [providers, channels, inboxes, inbox, routing] = await Promise.all([
    api<{ providers: Provider[] }>('/api/v1/providers', { token }),
    api<{ channels: Channel[] }>('/api/v1/channels', { token }),
    api<{ inboxes: Inbox[] }>('/api/v1/inboxes', { token }),
    api<{ inbox: InboxDetail }>(`/api/v1/inboxes/${inboxId}`, { token }),
    api<{ strategies: RoutingStrategy[] }>(`/api/v1/inboxes/${inboxId}/routing`, { token }),
  ]);
  for (const r of [providers, channels, inboxes, inbox, routing]) expect(r.status).toBe(200);
  return [providers, channels, inboxes, inbox, routing].map((r) => r.body.data);
}

describe('roles', () => {
  it('an AGENT reads the settings but cannot change providers, channels or inboxes', async () => {
    const owner = await signUp();
    const { provider, channel } = await withChannel(owner);
    const inbox = await createInbox(owner, 'Support');
    const agent = await addTeamMember(owner, { role: 'AGENT' });
    const before = await settingsOf(owner, inbox.id);

    // Reads stay open to every member.
    expect(await settingsOf(agent, inbox.id)).toEqual(before);

    const twilio = await newTwilioAccount();
    const token = agent.tokens.accessToken;
    const attempts = [
      api('/api/v1/providers/twilio', { token, body: { accountSid: twilio.accountSid, authToken: twilio.authToken } }),
      api(`/api/v1/providers/${provider.id}`, { token, method: 'DELETE' }),
      api(`/api/v1/providers/${provider.id}/import-channels`, {
        token,
        body: { numbers: [{ sid: 'PN0', phoneNumber: '+14155550199', capabilities: { voice: true, sms: true } }] },
      }),
      api(`/api/v1/channels/${channel.id}/routing`, {
        token,
        method: 'PATCH',
        body: { routingType: 'INBOX', routingTargetId: inbox.id },
      }),
      api('/api/v1/inboxes', { token, body: { name: 'Agent’s own inbox' } }),
      api(`/api/v1/inboxes/${inbox.id}`, { token, method: 'DELETE' }),
      api(`/api/v1/inboxes/${inbox.id}/routing`, { token, body: { channelType: 'PHONE', strategyType: 'RING_ALL', config: {} } }),
      api(`/api/v1/inboxes/${inbox.id}/members`, { token, body: { userId: agent.user.id } }),
      api(`/api/v1/inboxes/${inbox.id}/members/${owner.user.id}`, { token, method: 'DELETE' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: 'Only the owner and admins can do this.' });
    }
    expect(await settingsOf(owner, inbox.id)).toEqual(before);
  });

  it('an ADMIN manages the settings like the owner', async () => {
    const owner = await signUp();
    const admin = await addTeamMember(owner, { role: 'ADMIN', name: 'Adam Admin' });
    const inbox = await createInbox(admin, 'Escalations');
    const added = await api(`/api/v1/inboxes/${inbox.id}/members`, {
      token: admin.tokens.accessToken,
      body: { userId: owner.user.id },
    });
    expect(added.status).toBe(201);
    const seen = await api<{ inboxes: Inbox[] }>('/api/v1/inboxes', { token: owner.tokens.accessToken });
    expect(seen.body.data.inboxes).toMatchObject([{ name: 'Escalations', memberCount: 1 }]);
  });
});
