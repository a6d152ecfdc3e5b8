import { describe, expect, it } from 'vitest';
import { callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';

describe('inboxes', () => {
  it('are created with a required name and an optional description, and listed with their counts', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const missing = await callRoute(endpoints.createInbox, { token, body: { name: '   ' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Inbox name is required');

    const created = await createInbox(account, 'Billing', 'Invoices and refunds');
    expect(created).toMatchObject({ name: 'Billing', description: 'Invoices and refunds', memberCount: 0, channelCount: 0 });
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    const bare = await createInbox(account, 'Sales');
    expect(bare.description).toBeNull();

    const list = await callRoute(endpoints.listInboxes, { token });
    expect(list.body.data.inboxes.map((i) => i.name)).toEqual(['Billing', 'Sales']);
  });

  it('have names unique per company, whatever the case or spacing; a deleted inbox frees its name', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const support = await createInbox(account, 'Customer Support');
    const again = await callRoute(endpoints.createInbox, { token, body: { name: '  customer   SUPPORT ' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      code: 'CONFLICT',
      message: 'An inbox named customer   SUPPORT already exists.',
      details: { fields: { name: 'An inbox named customer   SUPPORT already exists.' } },
    });
    // Another company may use the same name.
    expect((await createInbox(await signUp(), 'Customer Support')).name).toBe('Customer Support');

    expect((await callRoute(endpoints.deleteInbox, { params: { id: support.id }, token })).status).toBe(200);
    expect((await createInbox(account, 'Customer Support')).name).toBe('Customer Support');
    const list = await callRoute(endpoints.listInboxes, { token });
    expect(list.body.data.inboxes.map((i) => i.name)).toEqual(['Customer Support']);
  });

  it('add and remove members, with counts and the member’s name and e-mail', async () => {
    const account = await signUp({ name: 'Mary Member' });
    const token = account.tokens.accessToken;
    const inbox = await createInbox(account);
    const users = await callRoute(endpoints.listUsers, { token });
    expect(users.body.data.users).toEqual([
      {
        id: account.user.id,
        name: 'Mary Member',
        email: account.email,
        role: 'OWNER',
        avatarUrl: null,
        lastActiveAt: expect.any(String),
        phoneReady: false,
      },
    ]);

    const added = await callRoute(endpoints.addInboxMember, {
      params: { id: inbox.id },
      token,
      body: { userId: account.user.id },
    });
    expect(added.status).toBe(201);
    const twice = await callRoute(endpoints.addInboxMember, {
      params: { id: inbox.id },
      token,
      body: { userId: account.user.id },
    });
    expect(twice.status).toBe(409);
    const nobody = await callRoute(endpoints.addInboxMember, {
      params: { id: inbox.id },
      token,
      body: { userId: 'no-such-user' },
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body.error.message).toBe('User not found');

    const detail = await callRoute(endpoints.getInbox, { params: { id: inbox.id }, token });
    expect(detail.body.data.inbox.memberCount).toBe(1);
    expect(detail.body.data.inbox.members).toEqual([
      {
        id: expect.any(String),
        userId: account.user.id,
        user: { name: 'Mary Member', email: account.email },
        phoneReady: false,
      },
    ]);

    const removed = await callRoute(endpoints.removeInboxMember, { params: { id: inbox.id, userId: account.user.id }, token });
    expect(removed.status).toBe(200);
    const after = await callRoute(endpoints.getInbox, { params: { id: inbox.id }, token });
    expect(after.body.data.inbox).toMatchObject({ memberCount: 0, members: [] });
    const again = await callRoute(endpoints.removeInboxMember, { params: { id: inbox.id, userId: account.user.id }, token });
    expect(again.status).toBe(404);
  });

  it('keep a Ring All Users strategy; voicemail is refused as coming soon', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const inbox = await createInbox(account);
    const empty = await callRoute(endpoints.getInboxRouting, { params: { id: inbox.id }, token });
    expect(empty.body.data.strategies).toEqual([]);
    const saved = await callRoute(endpoints.saveInboxRouting, {
      params: { id: inbox.id },
      token,
      body: { channelType: 'PHONE', strategyType: 'RING_ALL', config: {} },
    });
    expect(saved.status).toBe(200);
    const read = await callRoute(endpoints.getInboxRouting, { params: { id: inbox.id }, token });
    expect(read.body.data.strategies).toEqual([{ channelType: 'PHONE', strategyType: 'RING_ALL', config: {} }]);
    const voicemail = await callRoute(endpoints.saveInboxRouting, {
      params: { id: inbox.id },
      token,
      body: { channelType: 'PHONE', strategyType: unchecked('VOICEMAIL'), config: {} },
    });
    expect(voicemail.status).toBe(400);
    expect(voicemail.body.error.message).toBe('Only Ring All Users is available; Send to Voicemail is coming soon');
  });

  it('refuses a config the table could not store, and keeps the saved strategy', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const inbox = await createInbox(account);
    const save = (config: unknown) =>
      callRoute(endpoints.saveInboxRouting, {
        params: { id: inbox.id },
        token,
        body: { channelType: 'PHONE', strategyType: 'RING_ALL', config: unchecked(config) },
      });
    expect((await save({ greeting: 'Hello', retries: 2, record: true })).status).toBe(200);
    let nested: unknown = 'bottom';
    for (let i = 0; i < 40; i++) nested = { a: nested };
    for (const config of [nested, { huge: 1e300 }, { '': 'x' }, [1, 2]]) {
      const res = await save(config);
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(res.body.error.message).toMatch(/^config /);
    }
    const read = await callRoute(endpoints.getInboxRouting, { params: { id: inbox.id }, token });
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
      callRoute(endpoints.updateChannelRouting, { params: { id: channel.id }, token, body: unchecked(body) });

    const toInbox = await route({ routingType: 'INBOX', routingTargetId: inbox.id });
    expect(toInbox.status).toBe(200);
    expect(toInbox.body.data.channel).toMatchObject({
      routingType: 'INBOX',
      routingTargetId: inbox.id,
      routingTarget: { name: 'Front desk' },
    });
    const inboxes = await callRoute(endpoints.listInboxes, { token });
    expect(inboxes.body.data.inboxes[0]?.channelCount).toBe(1);

    const toUser = await route({ routingType: 'USER', routingTargetId: account.user.id });
    expect(toUser.body.data.channel).toMatchObject({ routingType: 'USER', routingTarget: { name: 'Rita Router' } });
    const listed = await callRoute(endpoints.listChannels, { token });
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
    const route = (body: unknown) =>
      callRoute(endpoints.updateChannelRouting, { params: { id: channel.id }, token, body: unchecked(body) });

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

    const listed = await callRoute(endpoints.listChannels, { token });
    expect(listed.body.data.channels[0]).toMatchObject({ routingType: 'UNASSIGNED', routingTargetId: null });
  });

  it('falls back to UNASSIGNED when the inbox it routes to is deleted', async () => {
    const account = await signUp();
    const token = account.tokens.accessToken;
    const { channel } = await withChannel(account);
    const inbox = await createInbox(account, 'Temporary');
    await callRoute(endpoints.addInboxMember, { params: { id: inbox.id }, token, body: { userId: account.user.id } });
    await callRoute(endpoints.saveInboxRouting, {
      params: { id: inbox.id },
      token,
      body: { channelType: 'PHONE', strategyType: 'RING_ALL' },
    });
    await callRoute(endpoints.updateChannelRouting, {
      params: { id: channel.id },
      token,
      body: { routingType: 'INBOX', routingTargetId: inbox.id },
    });

    const deleted = await callRoute(endpoints.deleteInbox, { params: { id: inbox.id }, token });
    expect(deleted.status).toBe(200);
    expect((await callRoute(endpoints.getInbox, { params: { id: inbox.id }, token })).status).toBe(404);
    const listed = await callRoute(endpoints.listChannels, { token });
    expect(listed.body.data.channels[0]).toMatchObject({ routingType: 'UNASSIGNED', routingTargetId: null, routingTarget: null });
    expect((await callRoute(endpoints.listInboxes, { token })).body.data.inboxes).toEqual([]);
  });
});
