import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { CONVERSATION_STATUS_FILTERS } from '../../../shared/constants';
import type {
  Conversation,
  ConversationDetail,
  ConversationPage,
  ConversationStatus,
  Message,
  MessageStatus,
} from '../../../shared/contract/conversations';

export type ConversationFilter = (typeof CONVERSATION_STATUS_FILTERS)[number];
/** The list pages loaded so far (Load More), each with the cursor of the next. */
export type ConversationListData = InfiniteData<ConversationPage, string | null>;
/** The thread: its first page holds the newest messages, each further page older ones. */
export type ThreadData = InfiniteData<ConversationDetail, string | null>;

/**
 * Conversation queries that more than the Conversations page touches: realtime events update them,
 * the dashboard counts the open ones. One key each, so one event reaches every screen.
 */
export const conversationKeys = {
  all: ['conversations'] as const,
  lists: ['conversations', 'list'] as const,
  list: (filter: ConversationFilter) => ['conversations', 'list', filter] as const,
  thread: (id: string) => ['conversations', 'thread', id] as const,
  openCount: ['conversations', 'open-count'] as const,
};

/**
 * What an update knows about the conversation's place in the totals when no copy of it is cached:
 * `created` (its first message), `status-changed` (opened or closed), or `unknown` (totals stay).
 */
export type ConversationChange = 'created' | 'status-changed' | 'unknown';

const inFilter = (filter: ConversationFilter, status: ConversationStatus) => filter === 'BOTH' || filter === status;

/** The status of the cached copy of a conversation, from any list or its thread; null if none is cached. */
function cachedStatus(queryClient: QueryClient, id: string): ConversationStatus | null {
  const thread = queryClient.getQueryData<ThreadData>(conversationKeys.thread(id));
  if (thread?.pages[0]) return thread.pages[0].status;
  for (const [, data] of queryClient.getQueriesData<ConversationListData>({ queryKey: conversationKeys.lists })) {
    for (const page of data?.pages ?? []) {
      const found = page.conversations.find((c) => c.id === id);
      if (found) return found.status;
    }
  }
  return null;
}

/**
 * Puts a conversation as the server now has it into every cached list and into its thread: moved to
 * its place by latest activity, taken out of the lists whose filter it no longer matches, and the
 * totals adjusted. Repeating an update changes nothing.
 */
export function storeConversation(queryClient: QueryClient, conversation: Conversation, change: ConversationChange): void {
  const previous = cachedStatus(queryClient, conversation.id);
  const countedBefore = (filter: ConversationFilter) => {
    if (previous) return inFilter(filter, previous);
    if (change === 'created') return false;
    if (change === 'status-changed') return filter === 'BOTH' || filter !== conversation.status;
    return inFilter(filter, conversation.status);
  };

  for (const [key, data] of queryClient.getQueriesData<ConversationListData>({ queryKey: conversationKeys.lists })) {
    const filter = key[2] as ConversationFilter;
    if (!data) continue;
    const counted = inFilter(filter, conversation.status);
    const delta = Number(counted) - Number(countedBefore(filter));
    queryClient.setQueryData<ConversationListData>(key, placeInList(data, conversation, counted, delta));
  }

  queryClient.setQueryData<ThreadData>(
    conversationKeys.thread(conversation.id),
    (thread) => thread && { ...thread, pages: thread.pages.map((page) => ({ ...page, ...conversation })) },
  );
  if (previous !== conversation.status) void queryClient.invalidateQueries({ queryKey: conversationKeys.openCount });
}

function placeInList(data: ConversationListData, conversation: Conversation, listed: boolean, delta: number) {
  const withTotal = (page: ConversationPage, conversations: Conversation[]): ConversationPage => ({
    ...page,
    conversations,
    total: Math.max(0, page.total + delta),
    pagination: { ...page.pagination, total: Math.max(0, page.pagination.total + delta) },
  });
  const existing = data.pages.flatMap((p) => p.conversations).find((c) => c.id === conversation.id);
  // Same activity: it keeps its place (a status change within Both, a repeated event).
  if (listed && existing && existing.lastMessageAt === conversation.lastMessageAt) {
    return {
      ...data,
      pages: data.pages.map((p) =>
        withTotal(
          p,
          p.conversations.map((c) => (c.id === conversation.id ? conversation : c)),
        ),
      ),
    };
  }
  const pages = data.pages.map((p) => p.conversations.filter((c) => c.id !== conversation.id));
  if (listed) {
    // Newest activity first; past the last loaded one it waits for Load More, unless the list ends here.
    let placed = false;
    for (const list of pages) {
      const at = list.findIndex((c) => c.lastMessageAt < conversation.lastMessageAt);
      if (at >= 0) {
        list.splice(at, 0, conversation);
        placed = true;
        break;
      }
    }
    const last = data.pages[data.pages.length - 1];
    if (!placed && last && !last.pagination.nextCursor) pages[pages.length - 1]?.push(conversation);
  }
  return { ...data, pages: data.pages.map((p, i) => withTotal(p, pages[i] ?? [])) };
}

/** How far an outbound message has come; a late or repeated update never moves it back. */
const STATUS_RANK: Record<MessageStatus, number> = {
  RECEIVED: 0,
  QUEUED: 1,
  SENDING: 2,
  SENT: 3,
  UNDELIVERED: 4,
  FAILED: 4,
  DELIVERED: 5,
};

/** Adds a message to its open thread, or updates the one there; the newest page takes new ones. */
/** A text that failed before Twilio took it can be sent again (retry): then its status starts over. */
const isRetried = (m: Message) => m.status === 'FAILED' && !m.smsMessage.providerMessageId;

export function storeMessage(queryClient: QueryClient, conversationId: string, message: Message): void {
  queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (thread) => {
    if (!thread?.pages[0]) return thread;
    const known = thread.pages.some((p) => p.messages.some((m) => m.id === message.id));
    if (known) {
      const pages = thread.pages.map((page) => ({
        ...page,
        messages: page.messages.map((m) =>
          m.id === message.id && (STATUS_RANK[message.status] >= STATUS_RANK[m.status] || isRetried(m)) ? message : m,
        ),
      }));
      return { ...thread, pages };
    }
    const [newest, ...older] = thread.pages;
    const messages = [...newest.messages, message].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { ...thread, pages: [{ ...newest, messages }, ...older] };
  });
}
