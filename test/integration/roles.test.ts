import { describe, expect, it } from 'vitest';
import { type Account, callRoute, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import { newTwilioAccount } from '../support/twilio';

/** Everything an OWNER or ADMIN sees in the settings, to show that an AGENT's attempts changed nothing. */
async function settingsOf(account: Account, inboxId: string) {
  const token = account.tokens.accessToken;
  const [providers, channels, inboxes, inbox, routing] = await Promise.all([
    callRoute(endpoints.listProviders, { token }),
    callRoute(endpoints.listChannels, { token }),
    callRoute(endpoints.listInboxes, { token }),
    callRoute(endpoints.getInbox, { params: { id: inboxId }, token }),
    callRoute(endpoints.getInboxRouting, { params: { id: inboxId }, token }),
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
      callRoute(endpoints.connectTwilio, { token, body: { accountSid: twilio.accountSid, authToken: twilio.authToken } }),
      callRoute(endpoints.disconnectProvider, { params: { id: provider.id }, token }),
      // Listing asks Twilio, for the import dialog alone: managers only, as importing.
      callRoute(endpoints.availableNumbers, { params: { id: provider.id }, token }),
      callRoute(endpoints.importChannels, {
        params: { id: provider.id },
        token,
        body: { numbers: [{ sid: 'PN0', phoneNumber: '+14155550199', capabilities: { voice: true, sms: true } }] },
      }),
      callRoute(endpoints.updateChannelRouting, {
        params: { id: channel.id },
        token,
        body: { routingType: 'INBOX', routingTargetId: inbox.id },
      }),
      callRoute(endpoints.createInbox, { token, body: { name: 'Agent’s own inbox' } }),
      callRoute(endpoints.deleteInbox, { params: { id: inbox.id }, token }),
      callRoute(endpoints.saveInboxRouting, {
        params: { id: inbox.id },
        token,
        body: { channelType: 'PHONE', strategyType: 'RING_ALL', config: {} },
      }),
      callRoute(endpoints.addInboxMember, { params: { id: inbox.id }, token, body: { userId: agent.user.id } }),
      callRoute(endpoints.removeInboxMember, { params: { id: inbox.id, userId: owner.user.id }, token }),
      callRoute(endpoints.setInboxRecording, { params: { id: inbox.id }, token, body: { enabled: true } }),
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
    const added = await callRoute(endpoints.addInboxMember, {
      params: { id: inbox.id },
      token: admin.tokens.accessToken,
      body: { userId: owner.user.id },
    });
    expect(added.status).toBe(201);
    const seen = await callRoute(endpoints.listInboxes, { token: owner.tokens.accessToken });
    expect(seen.body.data.inboxes).toMatchObject([{ name: 'Escalations', memberCount: 1, recordCalls: false }]);
    const recording = await callRoute(endpoints.setInboxRecording, {
      params: { id: inbox.id },
      token: admin.tokens.accessToken,
      body: { enabled: true },
    });
    expect(recording.body.data.inbox).toMatchObject({ name: 'Escalations', recordCalls: true });
  });
});
