import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint, HttpContract } from '../../shared/contract/route';
import type { Channel, Inbox, Provider } from '../../shared/contract/settings';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';
import { addInboxMember, routeChannel } from '../support/voice';

/**
 * Tenancy is sacred: every route that reads or writes by id answers another company's user with 404,
 * and changes nothing of the owner's.
 */
let owner: Account;
let stranger: Account;
let provider: Provider;
let channel: Channel;
let inbox: Inbox;
let strangerInbox: Inbox;
let strangerChannel: Channel;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([signUp({ companyName: 'Owner Co' }), signUp({ companyName: 'Stranger Co' })]);
  ({ provider, channel } = await withChannel(owner));
  inbox = await createInbox(owner, 'Private');
  await addInboxMember(owner, inbox.id, owner.user.id);
  await routeChannel(owner, channel, 'INBOX', inbox.id);
  strangerInbox = await createInbox(stranger, 'Theirs');
  ({ channel: strangerChannel } = await withChannel(stranger));
});

describe("another company's user", () => {
  const cases: [string, () => { endpoint: Endpoint<HttpContract>; params: Record<string, string>; body?: unknown }][] = [
    ['disconnects the provider', () => ({ endpoint: endpoints.disconnectProvider, params: { id: provider.id } })],
    ['lists its available numbers', () => ({ endpoint: endpoints.availableNumbers, params: { id: provider.id } })],
    [
      'imports through it',
      () => ({
        endpoint: endpoints.importChannels,
        params: { id: provider.id },
        body: { numbers: [{ sid: 'PN1', phoneNumber: '+15550000001', capabilities: { voice: true, sms: true } }] },
      }),
    ],
    [
      'routes the channel',
      () => ({ endpoint: endpoints.updateChannelRouting, params: { id: channel.id }, body: { routingType: 'UNASSIGNED' } }),
    ],
    ['reads the inbox', () => ({ endpoint: endpoints.getInbox, params: { id: inbox.id } })],
    ['deletes the inbox', () => ({ endpoint: endpoints.deleteInbox, params: { id: inbox.id } })],
    ['reads its routing', () => ({ endpoint: endpoints.getInboxRouting, params: { id: inbox.id } })],
    [
      'saves its routing',
      () => ({
        endpoint: endpoints.saveInboxRouting,
        params: { id: inbox.id },
        body: { channelType: 'PHONE', strategyType: 'RING_ALL' },
      }),
    ],
    [
      'adds itself as a member',
      () => ({ endpoint: endpoints.addInboxMember, params: { id: inbox.id }, body: { userId: stranger.user.id } }),
    ],
    ['removes a member', () => ({ endpoint: endpoints.removeInboxMember, params: { id: inbox.id, userId: owner.user.id } })],
    [
      'routes its own channel to the inbox',
      () => ({
        endpoint: endpoints.updateChannelRouting,
        params: { id: strangerChannel.id },
        body: { routingType: 'INBOX', routingTargetId: inbox.id },
      }),
    ],
    [
      'routes its own channel to the user',
      () => ({
        endpoint: endpoints.updateChannelRouting,
        params: { id: strangerChannel.id },
        body: { routingType: 'USER', routingTargetId: owner.user.id },
      }),
    ],
    [
      'adds the user to its own inbox',
      () => ({ endpoint: endpoints.addInboxMember, params: { id: strangerInbox.id }, body: { userId: owner.user.id } }),
    ],
  ];

  for (const [what, request] of cases) {
    it(`gets 404 when it ${what}`, async () => {
      const { endpoint, params, body } = request();
      const res = await callRoute(endpoint, unchecked({ params, body, token: stranger.tokens.accessToken }));
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('NOT_FOUND');
    });
  }

  it('sees none of the owner’s providers, channels, inboxes or users in its lists', async () => {
    const token = stranger.tokens.accessToken;
    const [providers, channels, inboxes, users] = await Promise.all([
      callRoute(endpoints.listProviders, { token }),
      callRoute(endpoints.listChannels, { token }),
      callRoute(endpoints.listInboxes, { token }),
      callRoute(endpoints.listUsers, { token }),
    ]);
    expect(providers.body.data.providers.map((p) => p.id)).not.toContain(provider.id);
    expect(channels.body.data.channels.map((c) => c.id)).toEqual([strangerChannel.id]);
    expect(inboxes.body.data.inboxes.map((i) => i.id)).toEqual([strangerInbox.id]);
    expect(users.body.data.users.map((u) => u.id)).toEqual([stranger.user.id]);
  });

  it('changed nothing of the owner’s', async () => {
    const token = owner.tokens.accessToken;
    const providers = await callRoute(endpoints.listProviders, { token });
    expect(providers.body.data.providers).toEqual([{ ...provider, channelCount: 1 }]);
    const detail = await callRoute(endpoints.getInbox, { params: { id: inbox.id }, token });
    expect(detail.body.data.inbox).toMatchObject({ name: 'Private', memberCount: 1, channelCount: 1 });
    expect(detail.body.data.inbox.members.map((m) => m.userId)).toEqual([owner.user.id]);
    const channels = await callRoute(endpoints.listChannels, { token });
    expect(channels.body.data.channels[0]).toMatchObject({
      id: channel.id,
      status: 'ACTIVE',
      routingType: 'INBOX',
      routingTargetId: inbox.id,
    });
  });
});
