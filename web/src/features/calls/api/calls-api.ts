import { CALL_HISTORY_REFRESH_MS, CALLS_LIST_LIMIT } from '@shared/constants';
import type { CallStatus } from '@shared/contract/calls';
import * as calls from '@shared/contract/endpoints/calls';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBinaryUrl } from '@/lib/binary-url';
import { callKeys } from '@/lib/call-keys';
import { pollingInterval } from '@/lib/realtime/polling';
import { useRealtimeState } from '@/lib/realtime/realtime';
import { api } from '@/lib/services';

/**
 * The page's filters as the address keeps them: a status, days (YYYY-MM-DD) in the reader's time zone,
 * and 'true' for calls with a voicemail only.
 */
export interface CallFilters {
  status: CallStatus | '';
  from: string;
  to: string;
  voicemail: '' | 'true';
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
        voicemail: filters.voicemail || undefined,
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

/**
 * A voicemail's recording as an object URL, fetched once the person asks to play it: the
 * server marks it listened when it answers, so the lists (and the Dashboard's count) are read again.
 */
export function useVoicemailAudio(call: { id: string; voicemail: { url: string } }, enabled: boolean) {
  const audio = useBinaryUrl(
    call.voicemail.url,
    (signal) => api.blob(calls.voicemailAudio, { params: { id: call.id }, signal }),
    enabled,
  );
  const queryClient = useQueryClient();
  const fetched = audio.blob !== undefined;
  useEffect(() => {
    if (fetched) void queryClient.invalidateQueries({ queryKey: callKeys.all });
  }, [fetched, queryClient]);
  return audio;
}

/** A call's recording as an object URL, fetched once the person asks to play it (docs/product.md: Call recording). */
export function useCallRecordingAudio(call: { providerCallId: string; recording: { url: string | null } }, enabled: boolean) {
  return useBinaryUrl(
    call.recording.url ?? '',
    (signal) => api.blob(calls.callRecordingAudio, { params: { callId: call.providerCallId }, signal }),
    enabled && call.recording.url !== null,
  );
}
