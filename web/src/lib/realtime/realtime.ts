import { realtimeTicket } from '@shared/contract/endpoints/realtime';
import type { OnlineUser, ServerEvent, ServerEventType } from '@shared/contract/realtime-events';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { api, queryClient } from '../services';
import { applyEvent, realtimeKeys, refreshAfterReconnect } from './event-cache';
import { createRealtimeClient, type SocketIdentity } from './realtime-client';

/** The tab's one socket. */
export const realtime = createRealtimeClient({
  ticket: () => api.call(realtimeTicket).then((d) => d.ticket),
  onEvent: (event) => applyEvent(queryClient, event),
  onReconnect: () => refreshAfterReconnect(queryClient),
});

/** Keeps the socket open while a user is signed in (the shell); leaving the shell (sign-out) closes it. */
export function useRealtimeConnection(identity: SocketIdentity | null) {
  const userId = identity?.userId;
  const companyId = identity?.companyId;
  useEffect(() => {
    if (!userId || !companyId) return;
    realtime.start({ userId, companyId });
    return () => realtime.stop();
  }, [userId, companyId]);
}

export function useRealtimeState() {
  return useSyncExternalStore(realtime.onState, realtime.state);
}

/** Runs `handler` for every event of this type while the component is mounted. */
export function useRealtimeEvent<K extends ServerEventType>(type: K, handler: (event: ServerEvent<K>) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => realtime.subscribe(type, (event) => latest.current(event)), [type]);
}

/** The company's online users, from the socket's presence events. */
export function useOnlineUsers(): OnlineUser[] {
  return useQuery({
    queryKey: realtimeKeys.presence,
    queryFn: () => [] as OnlineUser[],
    initialData: [],
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}
