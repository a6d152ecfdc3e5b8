import { InfiniteQueryObserver, infiniteQueryOptions, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, ConversationPage, Message, MessageStatus } from '../../../shared/contract/conversations';
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

describe('a read meets the cache (issue 22)', () => {
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
  direction: 'OUTBOUND',
  body: id,
  status,
  createdAt: at(Number(id.slice(1))),
  sentBy: null,
  smsMessage: { providerStatus: status.toLowerCase(), providerMessageId, segments: 1, errorCode: null, errorMessage: null },
});

describe('a thread read meets the cache (issue 22)', () => {
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
