import {
  CONVERSATION_LIST_REFRESH_MS,
  CONVERSATION_PAGE_SIZE,
  QUERY_RETRY_COUNT,
  THREAD_FAST_REFRESH_MS,
  THREAD_FAST_REFRESH_WINDOW_MS,
  THREAD_REFRESH_MS,
} from '@shared/constants';
import type { Conversation, ConversationPage, ConversationStatus, MemberRef } from '@shared/contract/conversations';
import * as contactEndpoints from '@shared/contract/endpoints/contacts';
import * as conversations from '@shared/contract/endpoints/conversations';
import {
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useSession } from '@/hooks/use-session';
import { ApiError, type BodyOf } from '@/lib/api-client';
import {
  type AssigneeScope,
  type ConversationFilter,
  cachedConversation,
  conversationKeys,
  keepFresherList,
  keepFresherThread,
  storeConversation,
  storeDelivery,
  storeMessage,
  storeResent,
} from '@/lib/conversation-cache';
import { pollingInterval } from '@/lib/realtime/polling';
import { useRealtimeState } from '@/lib/realtime/realtime';
import type { ConnectionState } from '@/lib/realtime/realtime-client';
import { api } from '@/lib/services';
import { usersQuery } from '@/lib/settings-queries';
import { adjustUnreadSummary } from '@/lib/unread-summary';

/** The list's Mine / Unassigned / All; the address and the API say `me` and `unassigned`. */
export type AssigneeFilter = 'me' | 'unassigned' | 'all';

export const fetchConversations = (status: ConversationFilter, assignee: AssigneeFilter, cursor: string | null) =>
  api.call(conversations.listConversations, {
    query: {
      status,
      limit: CONVERSATION_PAGE_SIZE,
      cursor: cursor ?? undefined,
      assignee: assignee === 'all' ? undefined : assignee,
    },
  });

export const fetchConversation = (id: string, before: string | null) =>
  api.call(conversations.getConversation, { params: { id }, query: { before: before ?? undefined } }).then((d) => d.conversation);

/** A text: its words, and the uploads of its pictures in the order attached (docs/product.md: Pictures out). */
export interface OutgoingText {
  body: string;
  pictureIds?: string[];
}

export const sendMessage = (id: string, { body, pictureIds }: OutgoingText) =>
  api
    .call(conversations.sendMessage, { params: { id }, body: pictureIds?.length ? { body, pictureIds } : { body } })
    .then((d) => d.message);

export const retryMessage = (id: string, messageId: string) =>
  api.call(conversations.retryMessage, { params: { id, messageId } }).then((d) => d.message);

export const updateConversationStatus = (id: string, status: ConversationStatus) =>
  api.call(conversations.updateConversationStatus, { params: { id }, body: { status } }).then((d) => d.conversation);

export const assignConversation = (id: string, userId: string | null) =>
  api.call(conversations.assignConversation, { params: { id }, body: { userId } }).then((d) => d.conversation);

export const addNote = (id: string, note: BodyOf<typeof conversations.addNote>) =>
  api.call(conversations.addNote, { params: { id }, body: note }).then((d) => d.message);

export const markConversationRead = (id: string) =>
  api.call(conversations.markConversationRead, { params: { id } }).then((d) => d.conversation);

/** The cache's scope of a list: Mine is the viewer's own id, so an assignment event finds its lists. */
const scopeOf = (assignee: AssigneeFilter, viewerId: string): AssigneeScope => (assignee === 'me' ? viewerId : assignee);

/**
 * docs/product.md §7/§9: a page of 20, newest activity first; Load More follows the cursor. Refetched
 * every 60 s only while the socket is down (pollingInterval). A read never undoes what the socket
 * delivered meanwhile (keepFresherList).
 */
export const conversationListQuery = (
  filter: ConversationFilter,
  queryClient: QueryClient,
  socket: ConnectionState,
  assignee: AssigneeFilter = 'all',
  viewerId = '',
) =>
  infiniteQueryOptions({
    queryKey: conversationKeys.list(filter, scopeOf(assignee, viewerId)),
    queryFn: ({ pageParam }) => fetchConversations(filter, assignee, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.nextCursor,
    refetchInterval: pollingInterval(socket, CONVERSATION_LIST_REFRESH_MS),
    structuralSharing: keepFresherList(queryClient, filter, scopeOf(assignee, viewerId)),
  });

/**
 * docs/product.md §4/§9: while the socket is down the thread refreshes every 60 s, and every 2 s for 30 s
 * after a send (`sentAt`), so delivery shows without it; while it is up the delivery status arrives as an
 * event and there is no burst (pollingInterval). Its pages go back in time: the newest messages first.
 * A read never undoes a status or message the socket delivered meanwhile (keepFresherThread).
 */
export const threadRefreshInterval = (sentAt: number | null, socket: ConnectionState, now = Date.now()) =>
  pollingInterval(
    socket,
    sentAt !== null && now - sentAt < THREAD_FAST_REFRESH_WINDOW_MS ? THREAD_FAST_REFRESH_MS : THREAD_REFRESH_MS,
  );

export const threadQuery = (id: string, sentAt: number | null, queryClient: QueryClient, socket: ConnectionState) =>
  infiniteQueryOptions({
    queryKey: conversationKeys.thread(id),
    queryFn: ({ pageParam }) => fetchConversation(id, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.olderCursor,
    refetchInterval: () => threadRefreshInterval(sentAt, socket),
    structuralSharing: keepFresherThread(queryClient),
    // Not found is the answer, not a fault: asked again it says the same (and a thread taken away closes at once).
    retry: (failures, error) => !isNotFound(error) && failures < QUERY_RETRY_COUNT,
  });

/** The server's 404: the conversation does not exist, or is not the viewer's to see (docs/product.md: Who sees what). */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

// Both re-render when the socket connects or drops, which re-sets the interval at once.
export function useConversationList(filter: ConversationFilter, assignee: AssigneeFilter = 'all') {
  const viewerId = useSession()?.user.id ?? '';
  return useInfiniteQuery(conversationListQuery(filter, useQueryClient(), useRealtimeState(), assignee, viewerId));
}

/** The list's conversations in order; one that moved up between two pages comes twice and is shown once. */
export function listedConversations(pages: readonly ConversationPage[] | undefined): Conversation[] {
  const seen = new Set<string>();
  return (pages ?? []).flatMap((p) => p.conversations).filter((c) => !seen.has(c.id) && Boolean(seen.add(c.id)));
}

export function useThread(id: string, sentAt: number | null) {
  return useInfiniteQuery(threadQuery(id, sentAt, useQueryClient(), useRealtimeState()));
}

export function useSendMessage(conversationId: string) {
  const queryClient = useQueryClient();
  const socket = useRealtimeState();
  return useMutation({
    mutationFn: (text: OutgoingText) => sendMessage(conversationId, text),
    onSuccess: (message) => {
      storeMessage(queryClient, conversationId, message);
      storeDelivery(queryClient, conversationId, message);
      // The list's last message and count: the socket's message_sent brings them; without it, a read.
      if (socket !== 'connected') return queryClient.invalidateQueries({ queryKey: conversationKeys.lists });
    },
    // Refused (409: Twilio disconnected meanwhile, opted out): the thread reads again and says why.
    onError: (error) =>
      error instanceof ApiError && error.status === 409
        ? queryClient.invalidateQueries({ queryKey: conversationKeys.thread(conversationId) })
        : undefined,
  });
}

/**
 * Sends a failed text again (docs/product.md: Retry): as itself, whose new status the thread shows, or,
 * once Twilio had taken it, as a new message, which the thread adds while the failed one loses its
 * Retry. The socket's events may come first.
 */
export function useRetryMessage(conversationId: string, messageId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => retryMessage(conversationId, messageId),
    onSuccess: (message) => {
      storeMessage(queryClient, conversationId, message);
      if (message.id !== messageId) storeResent(queryClient, conversationId, messageId, message.id);
      storeDelivery(queryClient, conversationId, message);
    },
  });
}

export function useUpdateConversationStatus(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: ConversationStatus) => updateConversationStatus(conversationId, status),
    onSuccess: (conversation) => storeConversation(queryClient, conversation, 'status-changed'),
  });
}

/**
 * The members a conversation can be assigned to or mention in its notes: those its detail says may see
 * it (`members`, docs/product.md: Who sees what), less anyone the team list (shared with Settings →
 * Team) no longer holds, so a member removed in another tab leaves the pickers at once. `activeIds`:
 * the whole team's, to tell a removed member from one who only does not see the conversation.
 */
export function useAssignableMembers(members: readonly MemberRef[]) {
  return useQuery({
    ...usersQuery(),
    select: (team) => ({
      offered: team.filter((user) => members.some((m) => m.id === user.id)),
      activeIds: team.map((user) => user.id),
    }),
  });
}

/** Assigns the conversation (or unassigns it: null); every list and the thread show the new owner. */
export function useAssignConversation(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string | null) => assignConversation(conversationId, userId),
    onSuccess: (conversation) => storeConversation(queryClient, conversation, 'assignee-changed'),
  });
}

/** An internal note: stored in the thread at once; the socket's note_added repeats it harmlessly. */
export function useAddNote(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: BodyOf<typeof conversations.addNote>) => addNote(conversationId, note),
    onSuccess: (message) => storeMessage(queryClient, conversationId, message),
  });
}

/** Marks the conversation read for the viewer: its unread count and the nav's count drop at once. */
export function useMarkRead(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => markConversationRead(conversationId),
    onSuccess: (answer) => {
      const before = cachedConversation(queryClient, conversationId);
      // A text the socket delivered while the request was out is newer than the answer: only the count is taken.
      const conversation =
        before && before.lastMessageAt > answer.lastMessageAt ? { ...before, unreadCount: answer.unreadCount } : answer;
      storeConversation(queryClient, conversation, 'unknown');
      adjustUnreadSummary(queryClient, before, conversation);
    },
  });
}

// —— Starting a conversation (docs/product.md: New conversation) ——

export const fetchSendingNumbers = () => api.call(conversations.listSendingNumbers).then((d) => d.sendingNumbers);

export const startConversation = (body: BodyOf<typeof conversations.startConversation>) =>
  api.call(conversations.startConversation, { body }).then((d) => d.conversation);

/** Contacts whose name, e-mail or number matches what is typed in To, for picking one by name. */
export const fetchContactMatches = (search: string) =>
  api.call(contactEndpoints.listContacts, { query: { search, limit: CONTACT_MATCHES } }).then((d) => d.contacts);

const CONTACT_MATCHES = 5;

export const sendingNumbersQuery = () =>
  queryOptions({ queryKey: [...conversationKeys.all, 'sending-numbers'] as const, queryFn: fetchSendingNumbers });

export const useSendingNumbers = () => useQuery(sendingNumbersQuery());

export function useContactMatches(search: string) {
  return useQuery({
    queryKey: ['contacts', 'matches', search] as const,
    queryFn: () => fetchContactMatches(search),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** Starts (or continues) the contact's conversation; the list learns it from the socket, or reads again without it. */
export function useStartConversation() {
  const queryClient = useQueryClient();
  const socket = useRealtimeState();
  return useMutation({
    mutationFn: startConversation,
    onSuccess: (conversation) => {
      storeConversation(queryClient, conversation, conversation.messageCount === 1 ? 'created' : 'unknown');
      void queryClient.invalidateQueries({ queryKey: conversationKeys.thread(conversation.id) });
      if (socket !== 'connected') return queryClient.invalidateQueries({ queryKey: conversationKeys.lists });
    },
  });
}
