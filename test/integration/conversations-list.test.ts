import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../../functions/conversations/records';
import { keys } from '../../functions/lib/table';
import type { ConversationPage } from '../../shared/contract/conversations';
import type { Channel } from '../../shared/contract/settings';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { type ConversationSeed, seedConversations, seedInboundMessage } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { withChannel } from '../support/settings';
import { testTable } from '../support/table';

/**
 * GET /api/v1/conversations: newest activity first per filter, totals from the company's counters,
 * pages by cursor (what the web app's Load More uses) or by offset (kept for API callers).
 */

type Query = Record<string, string | number>;
const list = (account: Account, query: Query = {}) =>
  callRoute(endpoints.listConversations, { query: unchecked(query), token: account.tokens.accessToken });

async function listed(account: Account, query: Query = {}): Promise<ConversationPage> {
  const res = await list(account, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A company with an SMS channel and `count` conversations, a minute apart, the last one newest. */
async function companyWith(count: number, seed: (i: number) => Partial<ConversationSeed> = () => ({})) {
  const account = await signUp({ companyName: 'Paging Co' });
  const { channel } = await withChannel(account);
  const start = Date.now() - 2 * 24 * 3600_000;
  const seeds = Array.from({ length: count }, (_, i) => ({ at: new Date(start + i * 60_000), ...seed(i) }));
  const conversations = await seedConversations(testTable(), account.company.id, channel, seeds);
  return { account, channel, conversations, newestFirst: [...conversations].reverse() };
}

const ids = (page: ConversationPage) => page.conversations.map((c) => c.id);

describe('the conversation list', () => {
  it('shows each filter newest activity first, with the totals of the counters', async () => {
    const statuses = ['OPEN', 'CLOSED', 'OPEN', 'CLOSED', 'OPEN'] as const;
    const { account, channel, newestFirst } = await companyWith(5, (i) => ({
      status: statuses[i],
      contactName: i === 0 ? 'Grace Hopper' : '',
      body: `message ${i}`,
    }));
    const byStatus = (status: string) => newestFirst.filter((c) => c.status === status).map((c) => c.id);

    const open = await listed(account, { status: 'OPEN' });
    expect(ids(open)).toEqual(byStatus('OPEN'));
    expect(open.total).toBe(3);
    expect(open.pagination).toEqual({ total: 3, limit: 20, offset: 0, nextCursor: null });
    const closed = await listed(account, { status: 'CLOSED' });
    expect(ids(closed)).toEqual(byStatus('CLOSED'));
    expect(closed.total).toBe(2);
    const both = await listed(account, { status: 'BOTH' });
    expect(ids(both)).toEqual(newestFirst.map((c) => c.id));
    expect(both.total).toBe(5);
    // BOTH is what the list shows without a filter.
    expect(ids(await listed(account))).toEqual(ids(both));

    const first = newestFirst.at(-1) as ConversationRecord;
    expect(both.conversations.at(-1)).toEqual({
      id: first.id,
      status: 'OPEN',
      contact: { id: first.contactId, name: 'Grace Hopper', phoneNumber: first.contactPhone },
      channel: { id: channel.id, identifier: channel.identifier },
      lastMessage: { direction: 'INBOUND', body: 'message 0' },
      lastMessageAt: first.lastMessageAt,
      messageCount: 1,
      optedOut: false,
      createdAt: first.createdAt,
      assignee: null,
      // Its text came before the reader joined the company.
      unreadCount: 0,
    });
  });

  it('shows the number and no name once the contact was deleted', async () => {
    const { account, conversations } = await companyWith(2, () => ({ contactName: 'Alan Turing' }));
    const [gone, kept] = conversations as [ConversationRecord, ConversationRecord];
    const { client, tableName } = testTable();
    await client.send(new DeleteCommand({ TableName: tableName, Key: keys.contact(account.company.id, gone.contactId) }));

    const page = await listed(account);
    expect(page.conversations.find((c) => c.id === gone.id)?.contact).toEqual({
      id: null,
      name: '',
      phoneNumber: gone.contactPhone,
    });
    expect(page.conversations.find((c) => c.id === kept.id)?.contact).toEqual({
      id: kept.contactId,
      name: 'Alan Turing',
      phoneNumber: kept.contactPhone,
    });
  });

  it('is empty with a total of 0 for a company without conversations', async () => {
    const account = await signUp({ companyName: 'Quiet Co' });
    for (const status of ['OPEN', 'CLOSED', 'BOTH']) {
      expect(await listed(account, { status })).toEqual({
        conversations: [],
        total: 0,
        pagination: { total: 0, limit: 20, offset: 0, nextCursor: null },
      });
    }
  });

  it("never shows another company's conversations, whatever cursor it is given", async () => {
    const owner = await companyWith(3);
    // Older than the owner's, so that they lie below the position of the owner's cursor.
    const stranger = await companyWith(2, (i) => ({ at: new Date(Date.now() - 3 * 24 * 3600_000 + i * 60_000) }));
    const ownerCursor = (await listed(owner.account, { limit: 1 })).pagination.nextCursor as string;

    const strangers = stranger.newestFirst.map((c) => c.id);
    expect(ids(await listed(stranger.account))).toEqual(strangers);
    // A cursor only says where to start: the company is the caller's, from the access token.
    const page = await listed(stranger.account, { cursor: ownerCursor });
    expect(ids(page)).toEqual(strangers);
    expect(page.total).toBe(2);
  });
});

describe('paging through 45 conversations', () => {
  let channel: Channel;
  let account: Account;
  let newestFirst: ConversationRecord[];

  // Each scenario changes the list, so each gets a company of its own.
  const fresh = async () => {
    ({ account, channel, newestFirst } = await companyWith(45));
  };
  const newConversation = async (phoneIndex: number) =>
    (
      await seedConversations(testTable(), account.company.id, channel, [{ at: new Date() }], phoneIndex)
    )[0] as ConversationRecord;

  it.each(['OPEN', 'BOTH'])(
    'by cursor (%s) returns every conversation once while messages and new conversations arrive',
    async (status) => {
      await fresh();
      const seen: string[] = [];

      const first = await listed(account, { status });
      seen.push(...ids(first));
      expect(first.pagination).toMatchObject({ total: 45, limit: 20, offset: 0 });
      // Between pages: a conversation already shown gets a message (it moves to the top) and a new
      // conversation starts (it is added at the top).
      await seedInboundMessage(testTable(), newestFirst[3] as ConversationRecord, 'one more thing');
      const arrived = [await newConversation(100)];

      const second = await listed(account, { status, cursor: first.pagination.nextCursor as string });
      seen.push(...ids(second));
      expect(second.pagination).toMatchObject({ total: 46, offset: 20 });
      await seedInboundMessage(testTable(), newestFirst[25] as ConversationRecord, 'and another');
      arrived.push(await newConversation(101));

      const third = await listed(account, { status, cursor: second.pagination.nextCursor as string });
      seen.push(...ids(third));
      expect(third.pagination).toMatchObject({ total: 47, offset: 40, nextCursor: null });

      expect(seen).toEqual(newestFirst.map((c) => c.id));
      // Whatever arrived while paging is at the top, where the list's next refresh shows it.
      expect(ids(await listed(account, { status, limit: 4 })).sort()).toEqual(
        [arrived[0], arrived[1], newestFirst[3], newestFirst[25]].map((c) => c?.id).sort(),
      );
    },
  );

  it('by offset: messages to conversations already shown move nothing; each new conversation repeats one at the next page', async () => {
    await fresh();
    const expected = newestFirst.map((c) => c.id);

    const first = await listed(account, { offset: 0 });
    expect(ids(first)).toEqual(expected.slice(0, 20));
    await seedInboundMessage(testTable(), newestFirst[3] as ConversationRecord, 'one more thing');

    // The moved conversation left a place above offset 20: everything from there on stays put.
    const second = await listed(account, { offset: 20 });
    expect(ids(second)).toEqual(expected.slice(20, 40));
    expect(second.pagination).toMatchObject({ offset: 20, total: 45 });
    await newConversation(100);

    // A new conversation at the top shifts every offset by one: the page repeats the conversation
    // at 39, and skips none. (The web app pages by cursor, which repeats nothing.)
    const third = await listed(account, { offset: 40 });
    expect(ids(third)).toEqual(expected.slice(39, 45));
    expect(third.pagination).toMatchObject({ offset: 40, total: 46, nextCursor: null });
  });

  it("by offset hands out a cursor that continues without the offset's repeat", async () => {
    await fresh();
    const expected = newestFirst.map((c) => c.id);

    const second = await listed(account, { offset: 20 });
    expect(ids(second)).toEqual(expected.slice(20, 40));
    await newConversation(100);

    const third = await listed(account, { cursor: second.pagination.nextCursor as string });
    expect(ids(third)).toEqual(expected.slice(40, 45));
    expect(third.pagination).toMatchObject({ offset: 40, nextCursor: null });
  });

  it('pages of other sizes, and an offset past the end, follow the same order', async () => {
    await fresh();
    const expected = newestFirst.map((c) => c.id);

    const page = await listed(account, { limit: 7, offset: 10 });
    expect(ids(page)).toEqual(expected.slice(10, 17));
    const next = await listed(account, { limit: 100, cursor: page.pagination.nextCursor as string });
    expect(ids(next)).toEqual(expected.slice(17));
    expect(next.pagination).toEqual({ total: 45, limit: 100, offset: 17, nextCursor: null });

    // Exactly at the end: no further page is offered.
    expect((await listed(account, { limit: 45 })).pagination.nextCursor).toBeNull();
    const past = await listed(account, { offset: 45 });
    expect(past.conversations).toEqual([]);
    expect(past.pagination).toEqual({ total: 45, limit: 20, offset: 45, nextCursor: null });
    expect((await listed(account, { offset: 1000 })).conversations).toEqual([]);
    // Past what a DynamoDB Limit can hold: still just an empty page.
    expect((await listed(account, { offset: 12_025_552_388 })).conversations).toEqual([]);
  });
});

describe('bad queries answer 400 with a message', () => {
  let account: Account;
  let openCursor: string;

  beforeAll(async () => {
    ({ account } = await companyWith(3, (i) => ({ status: i === 0 ? 'CLOSED' : 'OPEN' })));
    openCursor = (await listed(account, { status: 'OPEN', limit: 1 })).pagination.nextCursor as string;
  });

  const reencoded = (change: (fields: Record<string, unknown>) => Record<string, unknown>) =>
    Buffer.from(JSON.stringify(change(JSON.parse(Buffer.from(openCursor, 'base64url').toString())))).toString('base64url');

  it.each<[string, () => Query, string]>([
    ['limit 0', () => ({ limit: 0 }), 'limit must be at least 1'],
    ['limit over the maximum', () => ({ limit: 101 }), 'limit must be at most 100'],
    ['a limit that is no number', () => ({ limit: 'ten' }), 'limit must be a number'],
    ['a fractional limit', () => ({ limit: 2.5 }), 'limit must be a whole number'],
    ['a negative offset', () => ({ offset: -1 }), 'offset must be at least 0'],
    ['an unknown status', () => ({ status: 'ARCHIVED' }), 'status must be OPEN, CLOSED or BOTH'],
    ['a cursor of another filter', () => ({ status: 'CLOSED', cursor: openCursor }), 'cursor is invalid'],
    ['a cursor of another filter (BOTH)', () => ({ status: 'BOTH', cursor: openCursor }), 'cursor is invalid'],
    ['a garbage cursor', () => ({ status: 'OPEN', cursor: 'not a cursor!' }), 'cursor is invalid'],
    [
      'a cursor that is not JSON',
      () => ({ status: 'OPEN', cursor: Buffer.from('{oops').toString('base64url') }),
      'cursor is invalid',
    ],
    ['a cursor cut short', () => ({ status: 'OPEN', cursor: openCursor.slice(0, -6) }), 'cursor is invalid'],
    [
      'a cursor naming another filter inside',
      () => ({ status: 'OPEN', cursor: reencoded((f) => ({ ...f, f: 'CLOSED' })) }),
      'cursor is invalid',
    ],
    [
      'a cursor whose position is no index key',
      () => ({ status: 'OPEN', cursor: reencoded((f) => ({ ...f, k: 'COMPANY#other' })) }),
      'cursor is invalid',
    ],
    [
      'a cursor with a bad position number',
      () => ({ status: 'OPEN', cursor: reencoded((f) => ({ ...f, o: -3 })) }),
      'cursor is invalid',
    ],
    ['an overlong cursor', () => ({ status: 'OPEN', cursor: 'a'.repeat(501) }), 'cursor is invalid'],
    [
      'both a cursor and an offset',
      () => ({ status: 'OPEN', cursor: openCursor, offset: 1 }),
      'Use either offset or cursor, not both',
    ],
  ])('%s', async (_, query, message) => {
    const res = await list(account, query());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { message } });
  });

  it('and the cursor itself still works', async () => {
    const page = await listed(account, { status: 'OPEN', cursor: openCursor });
    expect(page.conversations).toHaveLength(1);
    expect(page.pagination.offset).toBe(1);
  });

  it('needs a signed-in user', async () => {
    expect((await callRoute(endpoints.listConversations)).status).toBe(401);
  });
});
