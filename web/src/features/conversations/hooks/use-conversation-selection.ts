import { useCallback } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { CONVERSATION_STATUS_FILTERS } from '../../../../../shared/constants';
import type { ConversationFilter } from '../../../lib/conversation-cache';

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

/**
 * The page's state lives in the address, so a reload or a link (/conversations/:id) opens the same
 * thread: the selected conversation in the path, the list filter in `?status=` (Open when absent).
 */
export function useConversationSelection() {
  const { conversationId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = toFilter(params.get('status'));

  const href = useCallback(
    (id: string | null, nextFilter: ConversationFilter = filter) => {
      const query = nextFilter === DEFAULT_FILTER ? '' : `?status=${nextFilter.toLowerCase()}`;
      return `/conversations${id ? `/${encodeURIComponent(id)}` : ''}${query}`;
    },
    [filter],
  );

  return {
    filter,
    selectedId: conversationId ?? null,
    href,
    // A filter is a view of the same page: it replaces the address rather than adding a Back step.
    setFilter: (next: ConversationFilter) => navigate(href(conversationId ?? null, next), { replace: true }),
    deselect: () => navigate(href(null)),
  };
}
