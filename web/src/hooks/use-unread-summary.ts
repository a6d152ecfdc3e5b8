import { useQuery } from '@tanstack/react-query';
import { useRealtimeState } from '../lib/realtime/realtime';
import { unreadSummaryQuery } from '../lib/unread-summary';

/** The nav's unread count (lib/unread-summary); only while signed in. */
export function useUnreadSummary(enabled = true) {
  return useQuery({ ...unreadSummaryQuery(useRealtimeState()), enabled });
}
