import { CONVERSATION_STATUS_FILTERS } from '@shared/constants';
import { useCallback, useRef } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { ConversationFilter } from '@/lib/conversation-cache';
import { type AssigneeFilter, listedConversations, useConversationList } from '../api/conversations-api';

const DEFAULT_FILTER: ConversationFilter = 'OPEN';

/** The navigation state of a conversation chosen from the list: its thread takes the keyboard. */
export const CHOSEN_FROM_LIST = { chosenFromList: true } as const;

/** Changes each time a conversation is chosen from the list; null when the thread was reached otherwise. */
export function useChosenFromList(): string | null {
  const location = useLocation();
  const state = location.state as Partial<typeof CHOSEN_FROM_LIST> | null;
  return state?.chosenFromList ? location.key : null;
}

const toFilter = (value: string | null): ConversationFilter => {
  const upper = value?.toUpperCase();
  return CONVERSATION_STATUS_FILTERS.find((f) => f === upper) ?? DEFAULT_FILTER;
};

const toAssignee = (value: string | null): AssigneeFilter => (value === 'me' || value === 'unassigned' ? value : 'all');

/**
 * The page's state lives in the address, so a reload or a link (/conversations/:id) opens the same
 * thread: the selected conversation in the path, the list filter in `?status=` (Open when absent) and
 * `?assignee=me|unassigned` (All when absent).
 */
export function useConversationSelection() {
  const { conversationId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = toFilter(params.get('status'));
  const assignee = toAssignee(params.get('assignee'));

  const href = useCallback(
    (id: string | null, nextFilter: ConversationFilter = filter, nextAssignee: AssigneeFilter = assignee) => {
      const query = new URLSearchParams();
      if (nextFilter !== DEFAULT_FILTER) query.set('status', nextFilter.toLowerCase());
      if (nextAssignee !== 'all') query.set('assignee', nextAssignee);
      const search = query.toString();
      return `/conversations${id ? `/${encodeURIComponent(id)}` : ''}${search ? `?${search}` : ''}`;
    },
    [filter, assignee],
  );

  // The list as last shown: the conversation after the one that leaves is read from it before the change.
  const list = useConversationList(filter, assignee);
  const shown = useRef<string[]>([]);
  shown.current = listedConversations(list.data?.pages).map((c) => c.id);

  return {
    filter,
    assignee,
    selectedId: conversationId ?? null,
    href,
    // A filter is a view of the same page: it replaces the address rather than adding a Back step.
    setFilter: (next: ConversationFilter) => navigate(href(conversationId ?? null, next), { replace: true }),
    setAssignee: (next: AssigneeFilter) => navigate(href(conversationId ?? null, filter, next), { replace: true }),
    deselect: () => navigate(href(null)),
    /** The conversation below `id` in the list (above it when it is the last), null when it is alone. */
    neighbourOf: (id: string): string | null => {
      const at = shown.current.indexOf(id);
      return at === -1 ? null : (shown.current[at + 1] ?? shown.current[at - 1] ?? null);
    },
    /**
     * Closed, or out of the filter: on to `next` as if chosen from the list (its composer takes the keyboard),
     * or nothing selected when the list has no other (docs/product.md: Conversations).
     */
    moveOn: (next: string | null) => (next ? navigate(href(next), { state: CHOSEN_FROM_LIST }) : navigate(href(null))),
  };
}
