import { useQuery } from '@tanstack/react-query';
import { CALLS_LIST_LIMIT } from '../../../../../shared/constants';
import type { CallStatus } from '../../../../../shared/contract/calls';
import * as calls from '../../../../../shared/contract/endpoints/calls';
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

export function useCalls(filters: CallFilters, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ['calls', filters], queryFn: () => fetchCalls(filters), enabled: options.enabled });
}
