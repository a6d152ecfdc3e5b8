import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../shared/contract/conversations';
import { type ConversationListData, conversationKeys, storeConversation } from './conversation-cache';
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
