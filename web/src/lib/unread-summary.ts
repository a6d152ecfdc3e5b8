import { CONVERSATION_LIST_REFRESH_MS, UNREAD_BADGE_MAX } from '@shared/constants';
import type { Conversation } from '@shared/contract/conversations';
import * as conversations from '@shared/contract/endpoints/conversations';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { conversationKeys } from './conversation-cache';
import { pollingInterval } from './realtime/polling';
import type { ConnectionState } from './realtime/realtime-client';
import { api } from './services';

/** The nav's count: open conversations with unread messages for the signed-in person. */
export interface UnreadSummary {
  count: number;
  /** False when the server looked at only the UNREAD_WINDOW most recently active open conversations. */
  complete: boolean;
}

export const fetchUnreadSummary = () => api.call(conversations.unreadConversations);

/**
 * Read by the shell (nav and tab title) on every page: events keep it fresh (event-cache), and without
 * the socket it is polled like the conversation list.
 */
export const unreadSummaryQuery = (socket: ConnectionState) =>
  queryOptions({
    queryKey: conversationKeys.unread,
    queryFn: fetchUnreadSummary,
    refetchInterval: pollingInterval(socket, CONVERSATION_LIST_REFRESH_MS),
  });

/** '3', or '99+' past UNREAD_BADGE_MAX (or at it when the server did not look at them all); null for none. */
export function unreadBadge(summary: UnreadSummary | undefined): string | null {
  if (!summary || summary.count <= 0) return null;
  const more = summary.count > UNREAD_BADGE_MAX || (!summary.complete && summary.count >= UNREAD_BADGE_MAX);
  return more ? `${UNREAD_BADGE_MAX}+` : String(summary.count);
}

const countsAsUnread = (c: Pick<Conversation, 'status' | 'unreadCount'> | null) =>
  c !== null && c.status === 'OPEN' && c.unreadCount > 0;

/**
 * Keeps the nav's count in step with a conversation whose unread count changed here (an event, a read):
 * one more or one fewer when its cached copy says what it was; otherwise the count is read again.
 */
export function adjustUnreadSummary(
  queryClient: QueryClient,
  before: Pick<Conversation, 'status' | 'unreadCount'> | null,
  after: Pick<Conversation, 'status' | 'unreadCount'>,
): void {
  const summary = queryClient.getQueryData<UnreadSummary>(conversationKeys.unread);
  if (!summary) return;
  if (!before) {
    void queryClient.invalidateQueries({ queryKey: conversationKeys.unread, exact: true });
    return;
  }
  const delta = Number(countsAsUnread(after)) - Number(countsAsUnread(before));
  if (delta !== 0)
    queryClient.setQueryData<UnreadSummary>(conversationKeys.unread, { ...summary, count: Math.max(0, summary.count + delta) });
}
