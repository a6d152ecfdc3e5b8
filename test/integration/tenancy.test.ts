import { beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Inbox, InboxDetail, Provider, TeamUser } from '../../shared/contract/settings';
import { type Account, api, signUp } from '../support/api';
import { createInbox, withChannel } from '../support/settings';

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
  await api(`/api/v1/inboxes/${inbox.id}/members`, { token: owner.tokens.accessToken, body: { userId: owner.user.id } });
  await api(`/api/v1/channels/${channel.id}/routing`, {
    method: 'PATCH',
    token: owner.tokens.accessToken,
    body: { routingType: 'INBOX', routingTargetId: inbox.id },
  });
  strangerInbox = await createInbox(stranger, 'Theirs');
  ({ channel: strangerChannel } = await withChannel(stranger));
});

describe("another company's user", () => {
  const cases: [string, () => { path: string; method: string; body?: unknown }][] = [
    ['disconnects the provider', () => ({ method: 'DELETE', path: `/api/v1/providers/${provider.id}` })],
    ['lists its available numbers', () => ({ method: 'GET', path: `/api/v1/providers/${provider.id}/available-numbers` })],
    [
      'imports through it',
      () => ({
        method: 'POST',
        path: `/api/v1/providers/${provider.id}/import-channels`,
        body: { numbers: [{ sid: 'PN1', phoneNumber: '+15550000001', capabilities: { voice: true, sms: true } }] },
      }),
    ],
    [
      'routes the channel',
      () => ({ method: 'PATCH', path: `/api/v1/channels/${channel.id}/routing`, body: { routingType: 'UNASSIGNED' } }),
    ],
    ['reads the inbox', () => ({ method: 'GET', path: `/api/v1/inboxes/${inbox.id}` })],
    ['deletes the inbox', () => ({ method: 'DELETE', path: `/api/v1/inboxes/${inbox.id}` })],
    ['reads its routing', () => ({ method: 'GET', path: `/api/v1/inboxes/${inbox.id}/routing` })],
    [
      'saves its routing',
      () => ({
        method: 'POST',
        path: `/api/v1/inboxes/${inbox.id}/routing`,
        body: { channelType: 'PHONE', strategyType: 'RING_ALL' },
      }),
    ],
    [
      'adds itself as a member',
      () => ({ method: 'POST', path: `/api/v1/inboxes/${inbox.id}/members`, body: { userId: stranger.user.id } }),
    ],
    ['removes a member', () => ({ method: 'DELETE', path: `/api/v1/inboxes/${inbox.id}/members/${owner.user.id}` })],
    [
      'routes its own channel to the inbox',
      () => ({
        method: 'PATCH',
        path: `/api/v1/channels/${strangerChannel.id}/routing`,
        body: { routingType: 'INBOX', routingTargetId: inbox.id },
      }),
    ],
    [
      'routes its own channel to the user',
      () => ({
        method: 'PATCH',
        path: `/api/v1/channels/${strangerChannel.id}/routing`,
        body: { routingType: 'USER', routingTargetId: owner.user.id },
      }),
    ],
    [
      'adds the user to its own inbox',
      () => ({ method: 'POST', path: `/api/v1/inboxes/${strangerInbox.id}/members`, body: { userId: owner.user.id } }),
    ],
  ];

  for (const [what, request] of cases) {
    it(`gets 404 when it ${what}`, async () => {
      const { path, method, body } = request();
      const res = await api(path, { method, body, token: stranger.tokens.accessToken });
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('NOT_FOUND');
    });
  }

  it('sees none of the owner’s providers, channels, inboxes or users in its lists', async () => {
    const token = stranger.tokens.accessToken;
    const [providers, channels, inboxes, users] = await Promise.all([
      api<{ providers: Provider[] }>('/api/v1/providers', { token }),
      api<{ channels: Channel[] }>('/api/v1/channels', { token }),
      api<{ inboxes: Inbox[] }>('/api/v1/inboxes', { token }),
      api<{ users: TeamUser[] }>('/api/v1/users', { token }),
    ]);
    expect(providers.body.data.providers.map((p) => p.id)).not.toContain(provider.id);
    expect(channels.body.data.channels.map((c) => c.id)).toEqual([strangerChannel.id]);
    expect(inboxes.body.data.inboxes.map((i) => i.id)).toEqual([strangerInbox.id]);
    expect(users.body.data.users.map((u) => u.id)).toEqual([stranger.user.id]);
  });

  it('changed nothing of the owner’s', async () => {
    const token = owner.tokens.accessToken;
    const providers = await api<{ providers: Provider[] }>('/api/v1/providers', { token });
    expect(providers.body.data.providers).toEqual([{ ...provider, channelCount: 1 }]);
    const detail = await api<{ inbox: InboxDetail }>(`/api/v1/inboxes/${inbox.id}`, { token });
    expect(detail.body.data.inbox).toMatchObject({ name: 'Private', memberCount: 1, channelCount: 1 });
    expect(detail.body.data.inbox.members.map((m) => m.userId)).toEqual([owner.user.id]);
    const channels = await api<{ channels: Channel[] }>('/api/v1/channels', { token });
    expect(channels.body.data.channels[0]).toMatchObject({
      id: channel.id,
      status: 'ACTIVE',
      routingType: 'INBOX',
      routingTargetId: inbox.id,
    });
  });
});
