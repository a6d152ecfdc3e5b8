import type { CONVERSATION_STATUS_FILTERS } from '@shared/constants';
import type {
  Conversation,
  ConversationDetail,
  ConversationPage,
  ConversationStatus,
  Message,
} from '@shared/contract/conversations';
import { isFailedStatus, STATUS_RANK } from '@shared/message-status';
import { type InfiniteData, type QueryClient, replaceEqualDeep } from '@tanstack/react-query';

export type ConversationFilter = (typeof CONVERSATION_STATUS_FILTERS)[number];
/**
 * Whose conversations a list holds: everyone's (`all`), nobody's (`unassigned`) or one
 * member's, by id (Mine is the viewer's id), so the cache can tell where an assigned conversation belongs.
 */
export type AssigneeScope = 'all' | 'unassigned' | (string & {});
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
  list: (filter: ConversationFilter, scope: AssigneeScope = 'all') => ['conversations', 'list', filter, scope] as const,
  thread: (id: string) => ['conversations', 'thread', id] as const,
  openCount: ['conversations', 'open-count'] as const,
  /** The nav's count of conversations with unread messages (lib/unread-summary). */
  unread: ['conversations', 'unread'] as const,
};

/**
 * What an update knows about the conversation's place in the totals when no copy of it is cached:
 * `created` (its first message), `status-changed` (opened or closed), `assignee-changed`, or `unknown` (totals stay).
 */
export type ConversationChange = 'created' | 'status-changed' | 'assignee-changed' | 'unknown';

const inFilter = (filter: ConversationFilter, status: ConversationStatus) => filter === 'BOTH' || filter === status;
const inScope = (scope: AssigneeScope, assignee: Conversation['assignee']) =>
  scope === 'all' || (scope === 'unassigned' ? assignee === null : assignee?.id === scope);
const listed = (filter: ConversationFilter, scope: AssigneeScope, c: Pick<Conversation, 'status' | 'assignee'>) =>
  inFilter(filter, c.status) && inScope(scope, c.assignee);

/** The cached copy of a conversation, from its thread or any list; null if none is cached. */
export function cachedConversation(queryClient: QueryClient, id: string): Conversation | null {
  const thread = queryClient.getQueryData<ThreadData>(conversationKeys.thread(id));
  if (thread?.pages[0]) return summaryOf(thread.pages[0]);
  for (const [, data] of queryClient.getQueriesData<ConversationListData>({ queryKey: conversationKeys.lists })) {
    for (const page of data?.pages ?? []) {
      const found = page.conversations.find((c) => c.id === id);
      if (found) return found;
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
  remember(queryClient, conversation);
  const previous = cachedConversation(queryClient, conversation.id);
  const countedBefore = (filter: ConversationFilter, scope: AssigneeScope) => {
    if (previous) return listed(filter, scope, previous);
    if (change === 'created') return false;
    if (change === 'status-changed')
      return (filter === 'BOTH' || filter !== conversation.status) && inScope(scope, conversation.assignee);
    // Assigned elsewhere: a list it belongs to now did not hold it before, one it left did.
    if (change === 'assignee-changed')
      return inFilter(filter, conversation.status) && (scope === 'all' || !inScope(scope, conversation.assignee));
    return listed(filter, scope, conversation);
  };

  for (const [key, data] of queryClient.getQueriesData<ConversationListData>({ queryKey: conversationKeys.lists })) {
    const filter = key[2] as ConversationFilter;
    const scope = (key[3] ?? 'all') as AssigneeScope;
    if (!data) continue;
    const counted = listed(filter, scope, conversation);
    const delta = Number(counted) - Number(countedBefore(filter, scope));
    queryClient.setQueryData<ConversationListData>(key, written(placeInList(data, conversation, counted, delta)));
  }

  queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversation.id), (thread) =>
    written(thread && { ...thread, pages: thread.pages.map((page) => ({ ...page, ...conversation })) }),
  );
  if (previous?.status !== conversation.status) void queryClient.invalidateQueries({ queryKey: conversationKeys.openCount });
}

function placeInList(data: ConversationListData, conversation: Conversation, belongs: boolean, delta: number) {
  const withTotal = (page: ConversationPage, conversations: Conversation[]): ConversationPage => ({
    ...page,
    conversations,
    total: Math.max(0, page.total + delta),
    pagination: { ...page.pagination, total: Math.max(0, page.pagination.total + delta) },
  });
  const existing = data.pages.flatMap((p) => p.conversations).find((c) => c.id === conversation.id);
  // Same activity: it keeps its place (a status change within Both, a repeated event).
  if (belongs && existing && existing.lastMessageAt === conversation.lastMessageAt) {
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
  if (belongs) {
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

/** A text that failed before Twilio took it can be sent again (retry): then its status starts over. */
const isRetried = (m: Message) => m.status === 'FAILED' && !m.smsMessage.providerMessageId;

/**
 * Whether `incoming` may replace the copy of a message held now: a late or repeated status never moves
 * it back (shared/message-status.ts), except that a retried text starts over.
 */
const replaces = (incoming: Message, held: Message) =>
  STATUS_RANK[incoming.status] >= STATUS_RANK[held.status] || isRetried(held);

/** Adds a message to its open thread, or updates the one there; the newest page takes new ones. */
export function storeMessage(queryClient: QueryClient, conversationId: string, message: Message): void {
  queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (thread) =>
    written(thread?.pages[0] ? withMessage(thread, message) : thread),
  );
}

/**
 * The list's mark of a failed last text (docs/product.md: Retry) follows the message's delivery: a
 * message event or answer that is the conversation's last message (its time is `lastMessageAt`) sets or
 * clears it in every cached list, as the server does on the conversation.
 */
export function storeDelivery(queryClient: QueryClient, conversationId: string, message: Message): void {
  if (message.direction !== 'OUTBOUND' || message.type === 'NOTE') return;
  const failed = isFailedStatus(message.status);
  for (const [key, data] of queryClient.getQueriesData<ConversationListData>({ queryKey: conversationKeys.lists })) {
    if (!data) continue;
    let changed = false;
    const pages = data.pages.map((page) => ({
      ...page,
      conversations: page.conversations.map((c) => {
        const last = c.lastMessage;
        if (c.id !== conversationId || !last || c.lastMessageAt !== message.createdAt || Boolean(last.failed) === failed)
          return c;
        changed = true;
        const { failed: _, ...rest } = last;
        return { ...c, lastMessage: failed ? { ...rest, failed: true } : rest };
      }),
    }));
    if (changed) queryClient.setQueryData<ConversationListData>(key, written({ ...data, pages }));
  }
}

/** The failed text `messageId` was sent again as `resentAs`: its Retry goes (the answer names only the new message). */
export function storeResent(queryClient: QueryClient, conversationId: string, messageId: string, resentAs: string): void {
  queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (thread) =>
    written(
      thread && {
        ...thread,
        pages: thread.pages.map((page) => ({
          ...page,
          messages: page.messages.map((m) => (m.id === messageId && !m.resentAs ? { ...m, resentAs } : m)),
        })),
      },
    ),
  );
}

function withMessage(thread: ThreadData, message: Message): ThreadData {
  const known = thread.pages.some((p) => p.messages.some((m) => m.id === message.id));
  if (known) {
    const pages = thread.pages.map((page) => ({
      ...page,
      messages: page.messages.map((m) => (m.id === message.id && replaces(message, m) ? message : m)),
    }));
    return { ...thread, pages };
  }
  const [newest, ...older] = thread.pages as [ConversationDetail, ...ConversationDetail[]];
  const messages = [...newest.messages, message].sort(byTime);
  return { ...thread, pages: [{ ...newest, messages }, ...older] };
}

const byTime = (a: Message, b: Message) => a.createdAt.localeCompare(b.createdAt);

/*
 * Reads never overwrite fresher news. The list reads an index (GSI1/GSI2), which DynamoDB
 * updates a moment after the conversation (eventually consistent), and a thread read can leave before
 * a change whose event arrives before its answer: either may bring an older state than the socket or
 * a mutation's answer already put here. Fetched data meets the cache in each query's
 * `structuralSharing` (below), the one place react-query hands over both the copy held and the one
 * fetched when a read lands, however it was started (polling, invalidation, Load More). Merging in
 * the query function instead would miss events that arrive while later pages are being read, and
 * Load More writes back the pages as they were when it left.
 * `structuralSharing` also runs for `setQueryData`: what this file writes there is marked and taken
 * as is, since it already applied its own order.
 */

/** Data written here from the socket or a mutation's answer, as opposed to fetched. */
const writtenHere = new WeakSet<object>();
function written<T extends object | undefined>(data: T): T {
  if (data) writtenHere.add(data);
  return data;
}

/**
 * How long the copy of a conversation the socket (or a mutation's answer) delivered outweighs a read
 * that says otherwise at the same activity. Opening and closing leave `lastMessageAt` as it is, and
 * the contract has no `updatedAt`, so only the time tells which is newer: an index is usually current
 * within a second in AWS; 5 s leaves room for a slow read, and a change the socket missed is still
 * read at the next refresh.
 */
export const INDEX_SETTLE_MS = 5_000;

interface Told {
  at: number;
  conversation: Conversation;
}
/** Per query client: the latest copy of each conversation the socket or a mutation's answer gave, and when. */
const toldBy = new WeakMap<QueryClient, Map<string, Told>>();

function remember(queryClient: QueryClient, conversation: Conversation, now = Date.now()) {
  const told = toldBy.get(queryClient) ?? new Map<string, Told>();
  toldBy.set(queryClient, told);
  for (const [id, entry] of told) if (now - entry.at >= INDEX_SETTLE_MS) told.delete(id);
  told.set(conversation.id, { at: now, conversation });
}

/** The copies told within INDEX_SETTLE_MS, by id. */
function recentlyTold(queryClient: QueryClient, now = Date.now()): Map<string, Conversation> {
  const recent = new Map<string, Conversation>();
  for (const [id, entry] of toldBy.get(queryClient) ?? [])
    if (now - entry.at < INDEX_SETTLE_MS) recent.set(id, entry.conversation);
  return recent;
}

/** The conversation fields of a thread page (the list's view of it). */
function summaryOf(detail: ConversationDetail): Conversation {
  const { id, status, contact, channel, lastMessage, lastMessageAt, messageCount, optedOut, createdAt, assignee, unreadCount } =
    detail;
  return { id, status, contact, channel, lastMessage, lastMessageAt, messageCount, optedOut, createdAt, assignee, unreadCount };
}

/**
 * Chooses, for each fetched conversation, the freshest copy: the one with the latest activity among
 * the fetched one, every cached list and thread, and what the socket told lately; at the same
 * activity the fetched one, unless the socket said otherwise within INDEX_SETTLE_MS.
 */
function freshestOf(queryClient: QueryClient, told: Map<string, Conversation>): (fetched: Conversation) => Conversation {
  const held = new Map<string, Conversation>();
  const hold = (c: Conversation) => {
    const other = held.get(c.id);
    if (!other || other.lastMessageAt < c.lastMessageAt) held.set(c.id, c);
  };
  for (const [, data] of queryClient.getQueriesData<ConversationListData>({ queryKey: conversationKeys.lists }))
    for (const page of data?.pages ?? []) page.conversations.forEach(hold);
  for (const [, data] of queryClient.getQueriesData<ThreadData>({ queryKey: ['conversations', 'thread'] }))
    if (data?.pages[0]) hold(summaryOf(data.pages[0]));
  return (fetched) => {
    const recent = told.get(fetched.id);
    const cached = held.get(fetched.id);
    const best = recent && (!cached || recent.lastMessageAt >= cached.lastMessageAt) ? recent : cached;
    if (!best || best.lastMessageAt < fetched.lastMessageAt) return fetched;
    return best.lastMessageAt > fetched.lastMessageAt || best === recent ? best : fetched;
  };
}

/**
 * The list's `structuralSharing`: a fetched page keeps, for each conversation, the freshest copy (one
 * that moved to another status since leaves this filter), and keeps a conversation the socket just
 * delivered that the index does not list yet; newest activity first.
 */
export function keepFresherList(queryClient: QueryClient, filter: ConversationFilter, scope: AssigneeScope = 'all') {
  return (previous: unknown, next: unknown): unknown => {
    const data = next as ConversationListData;
    if (writtenHere.has(data) || !data.pages[0]) return replaceEqualDeep(previous, next);
    const told = recentlyTold(queryClient);
    const freshest = freshestOf(queryClient, told);
    const fetchedIds = new Set(data.pages.flatMap((p) => p.conversations.map((c) => c.id)));
    const seen = new Set<string>();
    let moved = false;
    const kept = data.pages.map((page) =>
      page.conversations.map(freshest).filter((c) => {
        if (!listed(filter, scope, c)) moved = true;
        return listed(filter, scope, c) && !seen.has(c.id) && Boolean(seen.add(c.id));
      }),
    );
    // Past the last conversation read, one waits for Load More, unless the list ends there.
    const last = data.pages[data.pages.length - 1];
    const lastAt = data.pages.flatMap((p) => p.conversations).at(-1)?.lastMessageAt ?? '';
    const unlisted = [...told.values()].filter(
      (c) => !fetchedIds.has(c.id) && listed(filter, scope, c) && (c.lastMessageAt > lastAt || !last?.pagination.nextCursor),
    );
    kept[0]?.push(...unlisted);
    // The read's totals are as old as its index when it disagrees with the socket: those the socket left stand.
    const heldTotal = moved || unlisted.length > 0 ? (previous as ConversationListData | undefined)?.pages[0]?.total : undefined;
    // Newest activity first across the pages; each page keeps as many as it held.
    const ordered = kept.flat().sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt));
    let from = 0;
    const pages = data.pages.map((page, i) => {
      const conversations = ordered.slice(from, from + (kept[i]?.length ?? 0));
      from += conversations.length;
      const total = Math.max(heldTotal ?? page.total, ordered.length);
      return { ...page, conversations, total, pagination: { ...page.pagination, total } };
    });
    return replaceEqualDeep(previous, { ...data, pages });
  };
}

/**
 * The thread's `structuralSharing`: each fetched message keeps the cached copy when that one's status
 * is further along; a message the socket delivered that the read does not have yet stays when it is
 * newer than the newest read; the conversation's fields are the freshest copy.
 */
export function keepFresherThread(queryClient: QueryClient) {
  return (previous: unknown, next: unknown): unknown => {
    const data = next as ThreadData;
    const held = previous as ThreadData | undefined;
    if (writtenHere.has(data) || !data.pages[0]) return replaceEqualDeep(previous, next);
    const cached = new Map((held?.pages ?? []).flatMap((p) => p.messages).map((m) => [m.id, m]));
    const fetchedIds = new Set(data.pages.flatMap((p) => p.messages.map((m) => m.id)));
    const newestRead = data.pages[0].messages.at(-1)?.createdAt ?? '';
    const unread = [...cached.values()].filter((m) => !fetchedIds.has(m.id) && m.createdAt > newestRead);
    const conversation = freshestOf(queryClient, recentlyTold(queryClient))(summaryOf(data.pages[0]));
    const pages = data.pages.map((page, i) => {
      const messages = page.messages.map((m) => {
        const copy = cached.get(m.id);
        return copy && !replaces(m, copy) ? copy : m;
      });
      return { ...page, ...conversation, messages: i === 0 ? [...messages, ...unread].sort(byTime) : messages };
    });
    return replaceEqualDeep(previous, { ...data, pages });
  };
}

/**
 * A contact as someone now saved it (null: deleted) shown in every cached list and thread that has
 * a conversation with them: the name changes in place, nothing moves and no total changes. A
 * deleted contact's conversations show the number they kept (docs/product.md §2.6).
 */
export function storeContact(
  queryClient: QueryClient,
  contactId: string,
  contact: { id: string; name: string; phoneNumber: string } | null,
): void {
  const apply = <C extends Pick<Conversation, 'contact'>>(c: C): C =>
    c.contact.id !== contactId
      ? c
      : {
          ...c,
          contact: contact
            ? { id: contact.id, name: contact.name, phoneNumber: contact.phoneNumber }
            : { id: null, name: '', phoneNumber: c.contact.phoneNumber },
        };
  const touched = (c: Pick<Conversation, 'contact'>) => c.contact.id === contactId;
  for (const [key, data] of queryClient.getQueriesData<ConversationListData>({ queryKey: conversationKeys.lists })) {
    if (!data?.pages.some((p) => p.conversations.some(touched))) continue;
    queryClient.setQueryData<ConversationListData>(key, {
      ...data,
      pages: data.pages.map((p) => ({ ...p, conversations: p.conversations.map(apply) })),
    });
  }
  for (const [key, data] of queryClient.getQueriesData<ThreadData>({ queryKey: ['conversations', 'thread'] })) {
    if (!data?.pages.some(touched)) continue;
    queryClient.setQueryData<ThreadData>(key, { ...data, pages: data.pages.map(apply) });
  }
}
