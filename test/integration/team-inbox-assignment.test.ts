import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { assigneeCounter, type ConversationRecord } from '../../functions/conversations/records';
import { keys } from '../../functions/lib/table';
import type { Conversation, ConversationPage, ConversationStatus } from '../../shared/contract/conversations';
import type { Inbox } from '../../shared/contract/settings';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { seedConversations } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';
import { conversationWith, newPhone, readConversation, type SmsLine, smsLine, socketsClosedAfterEach } from '../support/sms';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { shareInbox } from '../support/team-inbox';
import { routeChannel } from '../support/voice';

/**
 * Assignment: PATCH /api/v1/conversations/{id}/assignee by any member to any active member
 * (or nobody), the event to the company, the automatic assignee of a USER-routed number, and the
 * list's `assignee` filter (me, unassigned, a member's id) with the status filter, paging and totals.
 */

const listen = socketsClosedAfterEach();

const assign = (who: Account, conversationId: string, body: unknown) =>
  callRoute(endpoints.assignConversation, {
    params: { id: conversationId },
    token: who.tokens.accessToken,
    body: unchecked(body),
  });

type Query = Record<string, string | number>;
const list = (who: Account, query: Query) =>
  callRoute(endpoints.listConversations, { query: unchecked(query), token: who.tokens.accessToken });

async function listed(who: Account, query: Query): Promise<ConversationPage> {
  const res = await list(who, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const ids = (page: ConversationPage) => page.conversations.map((c) => c.id);
const ref = (account: Account) => ({ id: account.user.id, name: account.user.name });

async function assigned(who: Account, conversationId: string, userId: string | null): Promise<Conversation> {
  const res = await assign(who, conversationId, { userId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.conversation;
}

describe('a company texting through its number', () => {
  let owner: Account;
  let agent: Account;
  let grace: Account;
  let line: SmsLine;
  /** The inbox all three belong to: routed there, the number's conversations are everyone's to assign. */
  let team: Inbox;

  beforeAll(async () => {
    owner = await signUp({ companyName: 'Assignment Co', name: 'Ada Lovelace' });
    [line, agent, grace] = await Promise.all([
      smsLine({ account: owner }),
      addTeamMember(owner, { name: 'Agent Smith' }),
      addTeamMember(owner, { name: 'Grace Hopper' }),
    ]);
    team = await shareInbox(owner, line.channel, [owner, agent, grace]);
  }, 60_000);

  it('a text to a USER-routed number starts the conversation assigned to that member; later texts leave the assignee', async () => {
    await routeChannel(owner, line.channel, 'USER', agent.user.id);
    const socket = await listen(line);
    const phone = newPhone();
    const conversationId = await conversationWith(line, socket, phone, 'Is my order on its way?');
    const arrived = socket.log.find((e) => e.type === 'new_message' && e.data.conversationId === conversationId);
    expect(arrived?.data).toMatchObject({ conversation: { assignee: { id: agent.user.id, name: 'Agent Smith' } } });
    expect((await readConversation(owner, conversationId)).body.data.conversation.assignee).toEqual(ref(agent));
    expect(ids(await listed(agent, { assignee: 'me', status: 'OPEN' }))).toContain(conversationId);
    expect(ids(await listed(owner, { assignee: agent.user.id }))).toContain(conversationId);
    expect(ids(await listed(owner, { assignee: 'unassigned' }))).not.toContain(conversationId);

    // The agent hands it over (to the owner: only they and the line's agent see it); the customer's
    // next text does not take it back.
    await assigned(agent, conversationId, owner.user.id);
    expect(await conversationWith(line, socket, phone, 'Hello again')).toBe(conversationId);
    expect((await readConversation(owner, conversationId)).body.data.conversation.assignee).toEqual(ref(owner));
    expect(ids(await listed(owner, { assignee: 'me' }))).toContain(conversationId);
    expect(ids(await listed(agent, { assignee: 'me' }))).not.toContain(conversationId);
  });

  it.each(['INBOX', 'UNASSIGNED'] as const)(
    'a text to an %s-routed number starts the conversation unassigned',
    async (routing) => {
      const inbox = routing === 'INBOX' ? await createInbox(owner, `Support ${randomUUID().slice(0, 8)}`) : undefined;
      await routeChannel(owner, line.channel, routing, inbox?.id ?? null);
      const socket = await listen(line);
      const conversationId = await conversationWith(line, socket, newPhone());
      const arrived = socket.log.find((e) => e.type === 'new_message' && e.data.conversationId === conversationId);
      expect(arrived?.data).toMatchObject({ conversation: { assignee: null } });
      expect(ids(await listed(owner, { assignee: 'unassigned', status: 'OPEN' }))).toContain(conversationId);
      expect(ids(await listed(owner, { assignee: 'me' }))).not.toContain(conversationId);
    },
  );

  it('any member assigns to any active member and unassigns; the company hears each change once', async () => {
    await routeChannel(owner, line.channel, 'INBOX', team.id);
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());

    const res = await assign(agent, conversationId, { userId: grace.user.id });
    expect(res.status).toBe(200);
    const conversation = res.body.data.conversation;
    // The answer is the caller's: they have not read the customer's text yet.
    expect(conversation).toMatchObject({ id: conversationId, status: 'OPEN', assignee: ref(grace), unreadCount: 1 });
    const event = await socket.next('conversation_assigned', (e) => e.data.conversationId === conversationId);
    // To every member: the conversation without a reader's unread count.
    const { unreadCount: _, ...shared } = conversation;
    expect(event.data).toEqual({ conversationId, assignee: ref(grace), assignedBy: ref(agent), conversation: shared });
    expect((await readConversation(agent, conversationId)).body.data.conversation.assignee).toEqual(ref(grace));

    // The assignee it has: answered as it is, nobody told.
    const again = await assign(owner, conversationId, { userId: grace.user.id });
    expect(again.status).toBe(200);
    expect(again.body.data.conversation).toEqual(conversation);
    await socket.beat();
    expect(socket.log.filter((e) => e.type === 'conversation_assigned')).toHaveLength(1);

    // Assigning oneself, then unassigning.
    expect((await assigned(owner, conversationId, owner.user.id)).assignee).toEqual(ref(owner));
    expect((await socket.next('conversation_assigned')).data).toMatchObject({ assignee: ref(owner), assignedBy: ref(owner) });
    const unassigned = await assigned(grace, conversationId, null);
    expect(unassigned.assignee).toBeNull();
    expect((await socket.next('conversation_assigned')).data).toMatchObject({
      conversationId,
      assignee: null,
      assignedBy: ref(grace),
      conversation: { assignee: null },
    });
    expect(ids(await listed(owner, { assignee: 'unassigned' }))).toContain(conversationId);
    expect(ids(await listed(owner, { assignee: owner.user.id }))).not.toContain(conversationId);
  });

  it("refuses a user who is not an active member, and another company's conversation, with 404; nothing changes", async () => {
    await routeChannel(owner, line.channel, 'INBOX', team.id);
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());
    await assigned(owner, conversationId, agent.user.id);
    await socket.next('conversation_assigned');

    const stranger = await signUp({ companyName: 'Stranger Co' });
    const leaver = await addTeamMember(owner, { name: 'Leaving Soon' });
    const removed = await callRoute(endpoints.removeUser, { params: { id: leaver.user.id }, token: owner.tokens.accessToken });
    expect(removed.status).toBe(200);
    for (const userId of [stranger.user.id, leaver.user.id, 'no-such-user', randomUUID()]) {
      const res = await assign(owner, conversationId, { userId });
      expect(res.status, userId).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'User not found' } });
    }
    // Another company's conversation is not found, whoever is named; and an id that names none.
    for (const [id, userId] of [
      [conversationId, stranger.user.id],
      [conversationId, null],
      ['no-such-conversation', stranger.user.id],
    ] as const) {
      const res = await assign(stranger, id, { userId });
      expect(res.status, `${id} ${userId}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'Conversation not found' } });
    }
    await socket.beat();
    expect(socket.log.filter((e) => e.type === 'conversation_assigned')).toHaveLength(1);
    expect((await readConversation(owner, conversationId)).body.data.conversation.assignee).toEqual(ref(agent));
    expect(await listed(stranger, { assignee: 'me' })).toMatchObject({ conversations: [], total: 0 });
  });

  it.each<[string, unknown, string]>([
    ['no userId', {}, 'userId must be a user id or null'],
    ['a number', { userId: 42 }, 'userId must be a user id or null'],
    ['an empty userId', { userId: '' }, 'userId must be a user id or null'],
    ['a userId too long', { userId: 'x'.repeat(101) }, 'userId is too long'],
  ])('with %s answers 400 and changes nothing', async (_, body, message) => {
    await routeChannel(owner, line.channel, 'INBOX', team.id);
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());
    const res = await assign(owner, conversationId, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED', message } });
    expect((await readConversation(owner, conversationId)).body.data.conversation.assignee).toBeNull();
  });

  it('needs a signed-in user', async () => {
    const res = await callRoute(endpoints.assignConversation, { params: { id: randomUUID() }, body: { userId: null } });
    expect(res.status).toBe(401);
  });
});

/** A conversation as the lists should show it. */
interface Expected {
  id: string;
  status: ConversationStatus;
  assigneeId: string | null;
  lastMessageAt: string;
}

describe('the assignee filter of the list', () => {
  /**
   * A company of two members with 12 conversations a minute apart (every third closed), seeded
   * unassigned and then assigned, reassigned, closed and reopened through the API, so the counters
   * behind the totals move as the product moves them. Answers the model the lists must match.
   */
  async function teamWithConversations() {
    const me = await signUp({ companyName: 'Filter Co' });
    const [{ channel }, colleague] = await Promise.all([withChannel(me), addTeamMember(me, { name: 'Agent Smith' })]);
    await shareInbox(me, channel, [me, colleague]);
    const start = Date.now() - 24 * 3600_000;
    const seeded = await seedConversations(
      testTable(),
      me.company.id,
      channel,
      Array.from(
        { length: 12 },
        (_, i) => ({ at: new Date(start + i * 60_000), status: i % 3 === 0 ? 'CLOSED' : 'OPEN' }) as const,
      ),
    );
    const model: Expected[] = seeded.map((c) => ({
      id: c.id,
      status: c.status,
      assigneeId: null,
      lastMessageAt: c.lastMessageAt,
    }));
    const at = (i: number) => model[i] as Expected;
    for (const i of [0, 1, 2, 3, 4]) at(i).assigneeId = (await assigned(colleague, at(i).id, me.user.id)).assignee?.id ?? null;
    for (const i of [5, 6, 7, 8]) at(i).assigneeId = (await assigned(me, at(i).id, colleague.user.id)).assignee?.id ?? null;
    // Handed back, and taken away again: the counters end where the assignee is.
    at(8).assigneeId = (await assigned(me, at(8).id, me.user.id)).assignee?.id ?? null;
    at(8).assigneeId = (await assigned(me, at(8).id, null)).assignee?.id ?? null;
    for (const [i, status] of [
      [1, 'CLOSED'],
      [6, 'OPEN'],
      [10, 'CLOSED'],
    ] as const) {
      const res = await callRoute(endpoints.updateConversationStatus, {
        params: { id: at(i).id },
        token: me.tokens.accessToken,
        body: { status },
      });
      expect(res.status).toBe(200);
      at(i).status = status;
    }
    return { me, colleague, model };
  }

  const newestFirst = (model: Expected[], assigneeId: string | null, status: string) =>
    model
      .filter((c) => c.assigneeId === assigneeId && (status === 'BOTH' || c.status === status))
      .sort((a, b) => (a.lastMessageAt < b.lastMessageAt ? 1 : -1))
      .map((c) => c.id);

  it('lists me, unassigned and a member by status, newest first, with the totals, by cursor and by offset', async () => {
    const { me, colleague, model } = await teamWithConversations();
    const filters: [string, string | null][] = [
      ['me', me.user.id],
      ['unassigned', null],
      [colleague.user.id, colleague.user.id],
    ];
    for (const [assignee, assigneeId] of filters) {
      for (const status of ['OPEN', 'CLOSED', 'BOTH']) {
        const expected = newestFirst(model, assigneeId, status);
        const name = `assignee=${assignee} status=${status}`;
        const whole = await listed(me, { assignee, status, limit: 100 });
        expect(ids(whole), name).toEqual(expected);
        expect(whole.total, name).toBe(expected.length);
        expect(whole.pagination, name).toEqual({ total: expected.length, limit: 100, offset: 0, nextCursor: null });
        // Every conversation of the model is under exactly one assignee: the all-status lists agree.
        expect(whole.conversations.every((c) => (c.assignee?.id ?? null) === assigneeId)).toBe(true);

        const byCursor: string[] = [];
        let cursor: string | null | undefined;
        do {
          const page = await listed(me, { assignee, status, limit: 2, ...(cursor ? { cursor } : {}) });
          expect(page.conversations.length, name).toBeLessThanOrEqual(2);
          expect(page.pagination.offset, name).toBe(byCursor.length);
          expect(page.total, name).toBe(expected.length);
          byCursor.push(...ids(page));
          cursor = page.pagination.nextCursor;
        } while (cursor);
        expect(byCursor, name).toEqual(expected);

        for (let offset = 0; offset <= expected.length; offset += 2) {
          const page = await listed(me, { assignee, status, limit: 2, offset });
          expect(ids(page), `${name} offset=${offset}`).toEqual(expected.slice(offset, offset + 2));
        }
      }
    }
    // `me` is whoever asks.
    expect(ids(await listed(colleague, { assignee: 'me', limit: 100 }))).toEqual(newestFirst(model, colleague.user.id, 'BOTH'));
    // The lists without an assignee still hold everything.
    expect((await listed(me, { limit: 100 })).total).toBe(12);
  });

  it("refuses a cursor of other filters, and assignees that can name no member's list", async () => {
    const { me, colleague } = await teamWithConversations();
    const mine = (await listed(me, { assignee: 'me', status: 'BOTH', limit: 1 })).pagination.nextCursor as string;
    const anyone = (await listed(me, { status: 'BOTH', limit: 1 })).pagination.nextCursor as string;
    expect(mine).toBeTruthy();
    // The same filters by another name: `me` and the caller's own id are one list.
    expect((await listed(me, { assignee: me.user.id, status: 'BOTH', limit: 1, cursor: mine })).pagination.offset).toBe(1);
    for (const query of [
      { assignee: 'unassigned', status: 'BOTH', cursor: mine },
      { assignee: colleague.user.id, status: 'BOTH', cursor: mine },
      { assignee: 'me', status: 'OPEN', cursor: mine },
      { status: 'BOTH', cursor: mine },
      { assignee: 'me', status: 'BOTH', cursor: anyone },
    ] as Query[]) {
      const res = await list(me, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED', message: 'cursor is invalid' } });
    }
    for (const [assignee, message] of [
      ['', 'assignee must be me, unassigned or a user id'],
      ['not an id', 'assignee must be me, unassigned or a user id'],
      ['NONE', 'assignee must be me, unassigned or a user id'],
      ['x'.repeat(101), 'assignee is too long'],
    ]) {
      const res = await list(me, { assignee: assignee as string });
      expect(res.status, assignee).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { message } });
    }
    // An id of nobody in the company is an empty list, not an error: no member's list is another company's.
    expect(await listed(me, { assignee: randomUUID() })).toMatchObject({ conversations: [], total: 0 });
  });

  it('parallel assignments and status changes leave the conversation in exactly one list, counted once', async () => {
    const { me, colleague, model } = await teamWithConversations();
    const target = model[11] as Expected;
    const answers = await Promise.all([
      assign(me, target.id, { userId: me.user.id }),
      assign(colleague, target.id, { userId: colleague.user.id }),
      assign(me, target.id, { userId: null }),
      assign(colleague, target.id, { userId: me.user.id }),
      callRoute(endpoints.updateConversationStatus, {
        params: { id: target.id },
        token: me.tokens.accessToken,
        body: { status: 'CLOSED' },
      }),
      assign(me, target.id, { userId: colleague.user.id }),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const now = (await readConversation(me, target.id)).body.data.conversation;
    expect(now.status).toBe('CLOSED');
    target.status = 'CLOSED';
    target.assigneeId = now.assignee?.id ?? null;
    for (const [assignee, assigneeId] of [
      ['me', me.user.id],
      ['unassigned', null],
      [colleague.user.id, colleague.user.id],
    ] as const) {
      for (const status of ['OPEN', 'CLOSED', 'BOTH']) {
        const page = await listed(me, { assignee, status, limit: 100 });
        const expected = newestFirst(model, assigneeId, status);
        expect(ids(page), `${assignee} ${status}`).toEqual(expected);
        expect(page.total, `${assignee} ${status}`).toBe(expected.length);
      }
    }
  });
});

describe('conversations stored before assignment', () => {
  it('join the assignee lists and their totals at their next change, counted once', async () => {
    const me = await signUp({ companyName: 'Old Co' });
    const { channel } = await withChannel(me);
    const start = Date.now() - 3600_000;
    const [closing, assigning, idle] = (await seedConversations(testTable(), me.company.id, channel, [
      { at: new Date(start) },
      { at: new Date(start + 60_000) },
      { at: new Date(start + 120_000) },
    ])) as [ConversationRecord, ConversationRecord, ConversationRecord];
    // As stored before the team inbox: no assignee, no assignee entry, not counted under anyone.
    const { client, tableName } = testTable();
    for (const conversation of [closing, assigning, idle]) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.conversation(me.company.id, conversation.id),
          UpdateExpression: 'REMOVE assignee, GSI3PK, GSI3SK',
        }),
      );
    }
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.company(me.company.id),
        UpdateExpression: 'ADD #unassigned :minus',
        ExpressionAttributeNames: { '#unassigned': assigneeCounter(null, 'OPEN') },
        ExpressionAttributeValues: { ':minus': -3 },
      }),
    );
    expect(await listed(me, { assignee: 'unassigned' })).toMatchObject({ conversations: [], total: 0 });
    // Still listed by status, unassigned.
    const all = await listed(me, {});
    expect(ids(all)).toEqual([idle.id, assigning.id, closing.id]);
    expect(all.conversations.map((c) => c.assignee)).toEqual([null, null, null]);

    const closed = await callRoute(endpoints.updateConversationStatus, {
      params: { id: closing.id },
      token: me.tokens.accessToken,
      body: { status: 'CLOSED' },
    });
    expect(closed.status).toBe(200);
    await assigned(me, assigning.id, me.user.id);

    const unassigned = await listed(me, { assignee: 'unassigned', status: 'BOTH' });
    expect(ids(unassigned)).toEqual([closing.id]);
    expect(unassigned.total).toBe(1);
    expect(await listed(me, { assignee: 'unassigned', status: 'OPEN' })).toMatchObject({ conversations: [], total: 0 });
    const mine = await listed(me, { assignee: 'me' });
    expect(ids(mine)).toEqual([assigning.id]);
    expect(mine.total).toBe(1);
  });
});
