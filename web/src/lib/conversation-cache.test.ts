import type { Conversation, ConversationPage, Message, MessageStatus } from '@shared/contract/conversations';
import { InfiniteQueryObserver, infiniteQueryOptions, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ConversationListData,
  conversationKeys,
  INDEX_SETTLE_MS,
  keepFresherList,
  keepFresherThread,
  storeConversation,
  type ThreadData,
} from './conversation-cache';
import { applyEvent, refreshAfterReconnect } from './realtime/event-cache';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();
const conversation = (id: string, minute: number, over: Partial<Conversation> = {}): Conversation => ({
  id,
  status: 'OPEN',
  contact: { id: `ct-${id}`, name: '', phoneNumber: '+14155550200' },
  channel: { id: 'ch-1', identifier: '+14155550101' },
  lastMessage: { direction: 'INBOUND', body: 'Hi' },
  lastMessageAt: at(minute),
  messageCount: 2,
  optedOut: false,
  createdAt: at(0),
  assignee: null,
  unreadCount: 0,
  ...over,
});

/** A list as Load More left it: pages of the given conversations, the last one with or without a next cursor. */
function seed(cache: QueryClient, filter: 'OPEN' | 'CLOSED' | 'BOTH', pages: Conversation[][], total: number, more = false) {
  cache.setQueryData<ConversationListData>(conversationKeys.list(filter), {
    pageParams: pages.map((_, i) => (i === 0 ? null : String(i))),
    pages: pages.map((conversations, i) => ({
      conversations,
      total,
      pagination: { total, limit: 20, offset: 0, nextCursor: i < pages.length - 1 || more ? String(i + 1) : null },
    })),
  });
}
const ids = (cache: QueryClient, filter: 'OPEN' | 'CLOSED' | 'BOTH') =>
  cache.getQueryData<ConversationListData>(conversationKeys.list(filter))?.pages.map((p) => p.conversations.map((c) => c.id));
const total = (cache: QueryClient, filter: 'OPEN' | 'CLOSED' | 'BOTH') =>
  cache.getQueryData<ConversationListData>(conversationKeys.list(filter))?.pages[0]?.total;

describe('conversations in the query cache', () => {
  it('a repeated new-conversation event is counted once', () => {
    const cache = new QueryClient();
    seed(cache, 'OPEN', [[conversation('a', 5)]], 1);
    const event = {
      type: 'new_message' as const,
      data: {
        conversationId: 'n',
        conversation: conversation('n', 9, { messageCount: 1 }),
        message: {} as never,
      },
    };
    applyEvent(cache, event);
    applyEvent(cache, event);
    expect(ids(cache, 'OPEN')).toEqual([['n', 'a']]);
    expect(total(cache, 'OPEN')).toBe(2);
  });

  it('activity moves a conversation up across pages; one older than what is loaded waits for Load More', () => {
    const cache = new QueryClient();
    seed(cache, 'BOTH', [[conversation('a', 9), conversation('b', 8)], [conversation('c', 7)]], 10, true);
    storeConversation(cache, conversation('c', 20), 'unknown');
    expect(ids(cache, 'BOTH')).toEqual([['c', 'a', 'b'], []]);
    storeConversation(cache, conversation('z', 1), 'unknown');
    expect(ids(cache, 'BOTH')).toEqual([['c', 'a', 'b'], []]);
    expect(total(cache, 'BOTH')).toBe(10);
  });

  it('a status change keeps its place under Both, moves between Open and Closed, and the totals follow', () => {
    const cache = new QueryClient();
    seed(cache, 'BOTH', [[conversation('a', 9), conversation('b', 8)]], 2);
    seed(cache, 'OPEN', [[conversation('a', 9), conversation('b', 8)]], 2);
    seed(cache, 'CLOSED', [[]], 0);
    storeConversation(cache, conversation('a', 9, { status: 'CLOSED' }), 'status-changed');
    expect(ids(cache, 'BOTH')).toEqual([['a', 'b']]);
    expect(ids(cache, 'OPEN')).toEqual([['b']]);
    expect(ids(cache, 'CLOSED')).toEqual([['a']]);
    expect([total(cache, 'BOTH'), total(cache, 'OPEN'), total(cache, 'CLOSED')]).toEqual([2, 1, 1]);
    // The same news again (the socket after the PATCH answer) changes nothing.
    storeConversation(cache, conversation('a', 9, { status: 'CLOSED' }), 'status-changed');
    expect([total(cache, 'BOTH'), total(cache, 'OPEN'), total(cache, 'CLOSED')]).toEqual([2, 1, 1]);
  });

  it('a status change of a conversation no list holds still moves the totals', () => {
    const cache = new QueryClient();
    seed(cache, 'OPEN', [[conversation('a', 9)]], 30, true);
    seed(cache, 'CLOSED', [[conversation('b', 9, { status: 'CLOSED' })]], 5, true);
    storeConversation(cache, conversation('far', 1, { status: 'CLOSED' }), 'status-changed');
    expect([total(cache, 'OPEN'), total(cache, 'CLOSED')]).toEqual([29, 6]);
  });

  it('everything about conversations is fetched again after a reconnect', () => {
    const cache = new QueryClient();
    seed(cache, 'OPEN', [[conversation('a', 9)]], 1);
    cache.setQueryData(conversationKeys.openCount, 1);
    refreshAfterReconnect(cache);
    expect(cache.getQueryState(conversationKeys.list('OPEN'))?.isInvalidated).toBe(true);
    expect(cache.getQueryState(conversationKeys.openCount)?.isInvalidated).toBe(true);
  });
});

/** What a read answers, page by cursor: `pages[cursor]`, each page but the last with a next cursor. */
const listRead = (cache: QueryClient, filter: 'OPEN' | 'CLOSED' | 'BOTH', pages: () => Conversation[][]) =>
  infiniteQueryOptions({
    queryKey: conversationKeys.list(filter),
    queryFn: ({ pageParam }): ConversationPage => {
      const all = pages();
      const i = Number(pageParam ?? 0);
      const count = all.flat().length;
      return {
        conversations: all[i] ?? [],
        total: count,
        pagination: { total: count, limit: 20, offset: 0, nextCursor: i < all.length - 1 ? String(i + 1) : null },
      };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.nextCursor,
    structuralSharing: keepFresherList(cache, filter),
  });
const listed = (cache: QueryClient, filter: 'OPEN' | 'CLOSED' | 'BOTH') =>
  cache.getQueryData<ConversationListData>(conversationKeys.list(filter))?.pages.map((p) => p.conversations);

describe('a read meets the cache', () => {
  afterEach(() => vi.useRealTimers());

  it('the socket’s status outweighs a read at the same activity for INDEX_SETTLE_MS; after that the read is believed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new QueryClient();
    let index = [[conversation('a', 9), conversation('b', 8)]];
    await cache.fetchInfiniteQuery(listRead(cache, 'BOTH', () => index));
    storeConversation(cache, conversation('a', 9, { status: 'CLOSED' }), 'status-changed');

    vi.advanceTimersByTime(INDEX_SETTLE_MS - 1);
    await cache.fetchInfiniteQuery(listRead(cache, 'BOTH', () => index));
    expect(listed(cache, 'BOTH')?.[0]?.map((c) => [c.id, c.status])).toEqual([
      ['a', 'CLOSED'],
      ['b', 'OPEN'],
    ]);

    // Reopened while the socket was down: the read says so, and is believed once the index had its time.
    vi.advanceTimersByTime(1);
    index = [[conversation('a', 9), conversation('b', 8)]];
    await cache.fetchInfiniteQuery(listRead(cache, 'BOTH', () => index));
    expect(listed(cache, 'BOTH')?.[0]?.map((c) => [c.id, c.status])).toEqual([
      ['a', 'OPEN'],
      ['b', 'OPEN'],
    ]);
  });

  it('a new conversation the index does not list yet stays at the top and counted; a later activity of the read wins', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new QueryClient();
    const index = [[conversation('a', 9)]];
    await cache.fetchInfiniteQuery(listRead(cache, 'OPEN', () => index));
    storeConversation(cache, conversation('new', 20, { messageCount: 1 }), 'created');
    await cache.fetchInfiniteQuery(listRead(cache, 'OPEN', () => index));
    expect(ids(cache, 'OPEN')).toEqual([['new', 'a']]);
    expect(total(cache, 'OPEN')).toBe(2);

    // 'a' moved on past what the socket said of it (a text the socket missed): the read's copy shows.
    storeConversation(cache, conversation('a', 10), 'unknown');
    await cache.fetchInfiniteQuery(listRead(cache, 'OPEN', () => [[conversation('a', 30), conversation('new', 20)]]));
    expect(listed(cache, 'OPEN')?.[0]?.map((c) => [c.id, c.lastMessageAt])).toEqual([
      ['a', at(30)],
      ['new', at(20)],
    ]);
  });

  it('Load More that lands after the socket moved a conversation keeps the move, and lists it once', async () => {
    const cache = new QueryClient();
    const index = [[conversation('a', 9), conversation('b', 8)], [conversation('c', 7)]];
    const observer = new InfiniteQueryObserver(
      cache,
      listRead(cache, 'BOTH', () => index),
    );
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(ids(cache, 'BOTH')).toEqual([['a', 'b']]));

    const more = observer.fetchNextPage();
    // Before the page lands, 'c' gets a text: to the top. The index has not caught up when the page is read.
    storeConversation(cache, conversation('c', 20), 'unknown');
    await more;
    expect(ids(cache, 'BOTH')?.flat()).toEqual(['c', 'a', 'b']);
    expect(listed(cache, 'BOTH')?.flat()[0]?.lastMessageAt).toBe(at(20));
    unsubscribe();
  });
});

const sms = (id: string, status: MessageStatus, providerMessageId: string | null = `SM${id}`): Message => ({
  id,
  conversationId: 'a',
  type: 'SMS',
  mentions: [],
  media: [],
  direction: 'OUTBOUND',
  body: id,
  status,
  createdAt: at(Number(id.slice(1))),
  sentBy: null,
  smsMessage: { providerStatus: status.toLowerCase(), providerMessageId, segments: 1, errorCode: null, errorMessage: null },
});

describe('a thread read meets the cache', () => {
  const threadRead = (cache: QueryClient, messages: () => Message[]) =>
    infiniteQueryOptions({
      queryKey: conversationKeys.thread('a'),
      queryFn: () => ({ ...conversation('a', 9), sendingBlockedBy: null, messages: messages(), olderCursor: null }),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.olderCursor,
      structuralSharing: keepFresherThread(cache),
    });
  const statuses = (cache: QueryClient) =>
    cache.getQueryData<ThreadData>(conversationKeys.thread('a'))?.pages[0]?.messages.map((m) => `${m.id} ${m.status}`);

  it('keeps the status further along (shared/message-status.ts), takes an equal or further one, and a retry’s new start', async () => {
    const cache = new QueryClient();
    await cache.fetchInfiniteQuery(
      threadRead(cache, () => [sms('m1', 'DELIVERED'), sms('m2', 'SENT'), sms('m3', 'FAILED'), sms('m4', 'FAILED', null)]),
    );
    await cache.fetchInfiniteQuery(
      threadRead(cache, () => [sms('m1', 'SENT'), sms('m2', 'DELIVERED'), sms('m3', 'UNDELIVERED'), sms('m4', 'QUEUED', null)]),
    );
    expect(statuses(cache)).toEqual(['m1 DELIVERED', 'm2 DELIVERED', 'm3 UNDELIVERED', 'm4 QUEUED']);
  });
});

describe('unread counts and assignment in the query cache', () => {
  const shared = (c: Conversation): Omit<Conversation, 'unreadCount'> => {
    const { unreadCount: _, ...rest } = c;
    return rest;
  };
  const text = (conversationId: string, over: Partial<Message> = {}) =>
    ({
      id: `m-${Math.random()}`,
      conversationId,
      type: 'SMS',
      direction: 'INBOUND',
      mentions: [],
      media: [],
      sentBy: null,
      ...over,
    }) as Message;
  const unreadOf = (cache: QueryClient, id: string, filter: 'OPEN' | 'BOTH' = 'OPEN', scope = 'all') =>
    cache
      .getQueryData<ConversationListData>(conversationKeys.list(filter, scope))
      ?.pages.flatMap((p) => p.conversations)
      .find((c) => c.id === id)?.unreadCount;
  const summary = (cache: QueryClient) => cache.getQueryData<{ count: number }>(conversationKeys.unread)?.count;
  function seedScope(cache: QueryClient, scope: string, list: Conversation[]) {
    cache.setQueryData<ConversationListData>(conversationKeys.list('OPEN', scope), {
      pageParams: [null],
      pages: [
        { conversations: list, total: list.length, pagination: { total: list.length, limit: 20, offset: 0, nextCursor: null } },
      ],
    });
  }

  it("an inbound text adds one to the reader's cached count (events carry none), an outbound one and a status change keep it", () => {
    const cache = new QueryClient();
    seed(cache, 'OPEN', [[conversation('a', 5, { unreadCount: 2 }), conversation('b', 4)]], 2);
    cache.setQueryData(conversationKeys.unread, { count: 1, complete: true });
    const a = conversation('a', 6, { messageCount: 3 });
    applyEvent(cache, { type: 'new_message', data: { conversationId: 'a', message: text('a'), conversation: shared(a) } });
    expect(unreadOf(cache, 'a')).toBe(3);
    expect(summary(cache)).toBe(1);

    const b = conversation('b', 7, { messageCount: 3 });
    applyEvent(cache, { type: 'new_message', data: { conversationId: 'b', message: text('b'), conversation: shared(b) } });
    expect(unreadOf(cache, 'b')).toBe(1);
    expect(summary(cache)).toBe(2);

    const answered = conversation('b', 8, { messageCount: 4 });
    const reply = text('b', { direction: 'OUTBOUND', sentBy: { id: 'u2', name: 'Grace' } });
    applyEvent(cache, { type: 'message_sent', data: { conversationId: 'b', message: reply, conversation: shared(answered) } });
    expect(unreadOf(cache, 'b')).toBe(1);
    // Closed: it still has its unread texts, but the nav counts open ones only.
    applyEvent(cache, {
      type: 'conversation_status_updated',
      data: { conversationId: 'b', status: 'CLOSED', conversation: shared({ ...answered, status: 'CLOSED' }) },
    });
    expect(summary(cache)).toBe(1);
  });

  it('conversation_read sets the count to 0 and the nav follows; a mention of the reader adds one, their own note or another mention does not', () => {
    const cache = new QueryClient();
    seed(cache, 'OPEN', [[conversation('a', 5, { unreadCount: 2 })]], 1);
    cache.setQueryData(conversationKeys.unread, { count: 1, complete: true });
    applyEvent(cache, { type: 'conversation_read', data: { conversationId: 'a' } }, 'u1');
    expect(unreadOf(cache, 'a')).toBe(0);
    expect(summary(cache)).toBe(0);

    const note = (sentBy: string, mentions: string[]) =>
      text('a', {
        type: 'NOTE',
        direction: 'OUTBOUND',
        sentBy: { id: sentBy, name: sentBy },
        mentions: mentions.map((id) => ({ id, name: id })),
      });
    applyEvent(cache, { type: 'note_added', data: { conversationId: 'a', message: note('u2', ['u3']) } }, 'u1');
    applyEvent(cache, { type: 'note_added', data: { conversationId: 'a', message: note('u1', ['u1']) } }, 'u1');
    expect(unreadOf(cache, 'a')).toBe(0);
    applyEvent(cache, { type: 'note_added', data: { conversationId: 'a', message: note('u2', ['u1', 'u3']) } }, 'u1');
    expect(unreadOf(cache, 'a')).toBe(1);
    expect(summary(cache)).toBe(1);
  });

  it('an unread change for a conversation no list holds reads the nav count again', () => {
    const cache = new QueryClient();
    cache.setQueryData(conversationKeys.unread, { count: 4, complete: true });
    applyEvent(cache, { type: 'conversation_read', data: { conversationId: 'x' } }, 'u1');
    expect(cache.getQueryState(conversationKeys.unread)?.isInvalidated).toBe(true);
  });

  it('an assignment moves the conversation between Mine and Unassigned, totals included, keeping its unread count', () => {
    const cache = new QueryClient();
    const a = conversation('a', 5, { unreadCount: 2 });
    seedScope(cache, 'u1', []);
    seedScope(cache, 'unassigned', [a, conversation('b', 4)]);
    seedScope(cache, 'all', [a, conversation('b', 4)]);
    const mine = { ...a, assignee: { id: 'u1', name: 'Ada' } };
    const event = {
      type: 'conversation_assigned' as const,
      data: { conversationId: 'a', assignee: mine.assignee, assignedBy: { id: 'u2', name: 'Grace' }, conversation: shared(mine) },
    };
    applyEvent(cache, event, 'u1');
    applyEvent(cache, event, 'u1');
    const listOf = (scope: string) => cache.getQueryData<ConversationListData>(conversationKeys.list('OPEN', scope))?.pages[0];
    expect(listOf('u1')?.conversations.map((c) => [c.id, c.assignee?.name, c.unreadCount])).toEqual([['a', 'Ada', 2]]);
    expect(listOf('u1')?.total).toBe(1);
    expect(listOf('unassigned')?.conversations.map((c) => c.id)).toEqual(['b']);
    expect(listOf('unassigned')?.total).toBe(1);
    expect(listOf('all')?.total).toBe(2);
    expect(unreadOf(cache, 'a', 'OPEN', 'all')).toBe(2);
  });

  it('a conversation assigned to the reader that no list held yet is counted in Mine, not in Unassigned', () => {
    const cache = new QueryClient();
    seedScope(cache, 'u1', [conversation('b', 4, { assignee: { id: 'u1', name: 'Ada' } })]);
    seedScope(cache, 'unassigned', [conversation('c', 3), conversation('d', 2)]);
    const far = conversation('far', 9, { assignee: { id: 'u1', name: 'Ada' } });
    applyEvent(
      cache,
      {
        type: 'conversation_assigned',
        data: { conversationId: 'far', assignee: far.assignee, assignedBy: far.assignee as never, conversation: shared(far) },
      },
      'u1',
    );
    const listOf = (scope: string) => cache.getQueryData<ConversationListData>(conversationKeys.list('OPEN', scope))?.pages[0];
    expect(listOf('u1')?.conversations.map((c) => c.id)).toEqual(['far', 'b']);
    expect(listOf('u1')?.total).toBe(2);
    // It was taken from Unassigned, which had not loaded it: one fewer there.
    expect(listOf('unassigned')?.total).toBe(1);
  });
});
