import { describe, expect, it } from 'vitest';
import type { Channel, Inbox, InboxDetail, RoutingStrategy, TeamUser } from '../../shared/contract/settings';
import { api, signUp } from '../support/api';
import { createInbox, withChannel } from '../support/settings';

describe('inboxes', () => {
  it('are created with a required name and an optional description, and listed with their counts', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const missing = await api('/api/v1/inboxes', { token, body: { name: '   ' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Inbox name is required');

    const created = await createInbox(account, 'Billing', 'Invoices and refunds');
    expect(created).toMatchObject({ name: 'Billing', description: 'Invoices and refunds', memberCount: 0, channelCount: 0 });
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    const bare = await createInbox(account, 'Sales');
    expect(bare.description).toBeNull();

    const list = await api<{ inboxes: Inbox[] }>('/api/v1/inboxes', { token });
    expect(list.body.data.inboxes.map((i) => i.name)).toEqual(['Billing', 'Sales']);
  });

  it('have names unique per company, whatever the case or spacing; a deleted inbox frees its name', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const support = await createInbox(account, 'Customer Support');
    const again = await api('/api/v1/inboxes', { token, body: { name: '  customer   SUPPORT ' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      code: 'CONFLICT',
      message: 'An inbox named customer   SUPPORT already exists.',
      details: { fields: { name: 'An inbox named customer   SUPPORT already exists.' } },
    });
    // Another company may use the same name.
    expect((await createInbox(await signUp(), 'Customer Support')).name).toBe('Customer Support');

    expect((await api(`/api/v1/inboxes/${support.id}`, { token, method: 'DELETE' })).status).toBe(200);
    expect((await createInbox(account, 'Customer Support')).name).toBe('Customer Support');
    const list = await api<{ inboxes: Inbox[] }>('/api/v1/inboxes', { token });
    expect(list.body.data.inboxes.map((i) => i.name)).toEqual(['Customer Support']);
  });

  it('add and remove members, with counts and the member’s name and e-mail', async () => {
    const account = await signUp({ name: 'Mary Member' });
    const token = account.tokens.accessToken;
    const inbox = await createInbox(account);
    const users = await api<{ users: TeamUser[] }>('/api/v1/users', { token });
    expect(users.body.data.users).toEqual([
      {
        id: account.user.id,
        name: 'Mary Member',
        email: account.email,
        role: 'OWNER',
        avatarUrl: null,
        lastActiveAt: expect.any(String),
      },
    ]);

    const added = await api(`/api/v1/inboxes/${inbox.id}/members`, { token, body: { userId: account.user.id } });
    expect(added.status).toBe(201);
    const twice = await api(`/api/v1/inboxes/${inbox.id}/members`, { token, body: { userId: account.user.id } });
    expect(twice.status).toBe(409);
    const nobody = await api(`/api/v1/inboxes/${inbox.id}/members`, { token, body: { userId: 'no-such-user' } });
    expect(nobody.status).toBe(404);
    expect(nobody.body.error.message).toBe('User not found');

    const detail = await api<{ inbox: InboxDetail }>(`/api/v1/inboxes/${inbox.id}`, { token });
    expect(detail.body.data.inbox.memberCount).toBe(1);
    expect(detail.body.data.inbox.members).toEqual([
      { id: expect.any(String), userId: account.user.id, user: { name: 'Mary Member', email: account.email } },
    ]);

    const removed = await api(`/api/v1/inboxes/${inbox.id}/members/${account.user.id}`, { method: 'DELETE', token });
    expect(removed.status).toBe(200);
    const after = await api<{ inbox: InboxDetail }>(`/api/v1/inboxes/${inbox.id}`, { token });
    expect(after.body.data.inbox).toMatchObject({ memberCount: 0, members: [] });
    const again = await api(`/api/v1/inboxes/${inbox.id}/members/${account.user.id}`, { method: 'DELETE', token });
    expect(again.status).toBe(404);
  });

  it('keep a Ring All Users strategy; voicemail is refused as coming soon', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const inbox = await createInbox(account);
    const empty = await api<{ strategies: RoutingStrategy[] }>(`/api/v1/inboxes/${inbox.id}/routing`, { token });
    expect(empty.body.data.strategies).toEqual([]);
    const saved = await api(`/api/v1/inboxes/${inbox.id}/routing`, {
      token,
      body: { channelType: 'PHONE', strategyType: 'RING_ALL', config: {} },
    });
    expect(saved.status).toBe(200);
    const read = await api<{ strategies: RoutingStrategy[] }>(`/api/v1/inboxes/${inbox.id}/routing`, { token });
    expect(read.body.data.strategies).toEqual([{ channelType: 'PHONE', strategyType: 'RING_ALL', config: {} }]);
    const voicemail = await api(`/api/v1/inboxes/${inbox.id}/routing`, {
      token,
      body: { channelType: 'PHONE', strategyType: 'VOICEMAIL', config: {} },
    });
    expect(voicemail.status).toBe(400);
    expect(voicemail.body.error.message).toBe('Only Ring All Users is available; Send to Voicemail is coming soon');
  });

  it('refuses a config the table could not store, and keeps the saved strategy', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const inbox = await createInbox(account);
    const save = (config: unknown) =>
      api(`/api/v1/inboxes/${inbox.id}/routing`, { token, body: { channelType: 'PHONE', strategyType: 'RING_ALL', config } });
    expect((await save({ greeting: 'Hello', retries: 2, record: true })).status).toBe(200);
    let nested: unknown = 'bottom';
    for (let i = 0; i < 40; i++) nested = { a: nested };
    for (const config of [nested, { huge: 1e300 }, { '': 'x' }, [1, 2]]) {
      const res = await save(config);
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(res.body.error.message).toMatch(/^config /);
    }
    const read = await api<{ strategies: RoutingStrategy[] }>(`/api/v1/inboxes/${inbox.id}/routing`, { token });
    expect(read.body.data.strategies).toEqual([
      { channelType: 'PHONE', strategyType: 'RING_ALL', config: { greeting: 'Hello', retries: 2, record: true } },
    ]);
  });
});

describe('channel routing', () => {
  it('routes to an inbox or a user of the company, or to nobody', async () => {
    const account = await signUp({ name: 'Rita Router' });
    const token = account.tokens.accessToken;
    const { channel } = await withChannel(account);
    const inbox = await createInbox(account, 'Front desk');
    const route = (body: unknown) =>
      api<{ channel: Channel }>(`/api/v1/channels/${channel.id}/routing`, { method: 'PATCH', token, body });

    const toInbox = await route({ routingType: 'INBOX', routingTargetId: inbox.id });
    expect(toInbox.status).toBe(200);
    expect(toInbox.body.data.channel).toMatchObject({
      routingType: 'INBOX',
      routingTargetId: inbox.id,
      routingTarget: { name: 'Front desk' },
    });
    const inboxes = await api<{ inboxes: Inbox[] }>('/api/v1/inboxes', { token });
    expect(inboxes.body.data.inboxes[0]?.channelCount).toBe(1);

    const toUser = await route({ routingType: 'USER', routingTargetId: account.user.id });
    expect(toUser.body.data.channel).toMatchObject({ routingType: 'USER', routingTarget: { name: 'Rita Router' } });
    const listed = await api<{ channels: Channel[] }>('/api/v1/channels', { token });
    expect(listed.body.data.channels[0]).toMatchObject({
      routingType: 'USER',
      routingTargetId: account.user.id,
      routingTarget: { name: 'Rita Router' },
    });

    const unassigned = await route({ routingType: 'UNASSIGNED', routingTargetId: inbox.id });
    expect(unassigned.body.data.channel).toMatchObject({ routingType: 'UNASSIGNED', routingTargetId: null, routingTarget: null });
  });

  it('refuses a missing target, a target that does not exist, and an unknown routing type', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const { channel } = await withChannel(account);
    const route = (body: unknown) => api(`/api/v1/channels/${channel.id}/routing`, { method: 'PATCH', token, body });

    const noTarget = await route({ routingType: 'INBOX', routingTargetId: null });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error.message).toBe('Choose an inbox');
    const gone = await route({ routingType: 'INBOX', routingTargetId: 'missing-inbox' });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('Inbox not found');
    const ghost = await route({ routingType: 'USER', routingTargetId: 'missing-user' });
    expect(ghost.status).toBe(404);
    expect(ghost.body.error.message).toBe('User not found');
    const odd = await route({ routingType: 'TEAM' });
    expect(odd.status).toBe(400);
    expect(odd.body.error.message).toBe('Routing type must be UNASSIGNED, INBOX or USER');

    const listed = await api<{ channels: Channel[] }>('/api/v1/channels', { token });
    expect(listed.body.data.channels[0]).toMatchObject({ routingType: 'UNASSIGNED', routingTargetId: null });
  });

  it('falls back to UNASSIGNED when the inbox it routes to is deleted', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const { channel } = await withChannel(account);
    const inbox = await createInbox(account, 'Temporary');
    await api(`/api/v1/inboxes/${inbox.id}/members`, { token, body: { userId: account.user.id } });
    await api(`/api/v1/inboxes/${inbox.id}/routing`, { token, body: { channelType: 'PHONE', strategyType: 'RING_ALL' } });
    await api(`/api/v1/channels/${channel.id}/routing`, {
      method: 'PATCH',
      token,
      body: { routingType: 'INBOX', routingTargetId: inbox.id },
    });

    const deleted = await api(`/api/v1/inboxes/${inbox.id}`, { method: 'DELETE', token });
    expect(deleted.status).toBe(200);
    expect((await api(`/api/v1/inboxes/${inbox.id}`, { token })).status).toBe(404);
    const listed = await api<{ channels: Channel[] }>('/api/v1/channels', { token });
    expect(listed.body.data.channels[0]).toMatchObject({ routingType: 'UNASSIGNED', routingTargetId: null, routingTarget: null });
    expect((await api<{ inboxes: Inbox[] }>('/api/v1/inboxes', { token })).body.data.inboxes).toEqual([]);
  });
});
