import { useQuery } from '@tanstack/react-query';
import { CALL_HISTORY_REFRESH_MS, CALLS_LIST_LIMIT } from '../../../../../shared/constants';
import type { CallStatus } from '../../../../../shared/contract/calls';
import * as calls from '../../../../../shared/contract/endpoints/calls';
import { callKeys } from '../../../lib/call-keys';
import { pollingInterval } from '../../../lib/realtime/polling';
import { useRealtimeState } from '../../../lib/realtime/realtime';
import { api } from '../../../lib/services';

/** The page's filters as the address keeps them: a status, and days (YYYY-MM-DD) in the reader's time zone. */
export interface CallFilters {
  status: CallStatus | '';
  from: string;
  to: string;
}

/** The start of a local day, or the end of it, as the instant the API takes (ISO 8601). */
export function dayBoundary(day: string, end: boolean): string {
  if (!day) return '';
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const local = end ? new Date(year, month - 1, date, 23, 59, 59, 999) : new Date(year, month - 1, date);
  return Number.isNaN(local.getTime()) ? '' : local.toISOString();
}

export const fetchCalls = (filters: CallFilters) =>
  api
    .call(calls.listCalls, {
      query: {
        status: filters.status,
        dateFrom: dayBoundary(filters.from, false),
        dateTo: dayBoundary(filters.to, true),
        limit: CALLS_LIST_LIMIT,
      },
    })
    .then((d) => d.calls);

/**
 * A call that ends reads the list again (its `call_ended` event, web/src/lib/realtime/event-cache.ts); while the
 * socket is down, that cannot happen, so the list is polled as the conversation list is (pollingInterval).
 */
export function useCalls(filters: CallFilters, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: callKeys.list(filters),
    queryFn: () => fetchCalls(filters),
    enabled: options.enabled,
    refetchInterval: pollingInterval(useRealtimeState(), CALL_HISTORY_REFRESH_MS),
  });
}
