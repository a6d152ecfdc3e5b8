import { act } from '@testing-library/react';
import { useEffect, useRef } from 'react';
import type { ServerEvent, ServerEventType } from '../../shared/contract/realtime-events';

/**
 * A stand-in for lib/realtime/realtime in component tests: events come from `push` instead of a
 * socket. In a test file: `vi.mock('<path>/lib/realtime/realtime', () => import('<path>/test-realtime'))`.
 */
const listeners = new Map<string, Set<(event: unknown) => void>>();

export function useRealtimeEvent(type: string, handler: (event: unknown) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const set = listeners.get(type) ?? new Set();
    listeners.set(type, set);
    const listener = (event: unknown) => latest.current(event);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }, [type]);
}

/** Delivers an event to every component listening for its type, as the socket would. */
export function push<K extends ServerEventType>(type: K, data: ServerEvent<K>['data']) {
  act(() => {
    for (const listener of listeners.get(type) ?? []) listener({ type, data });
  });
}

/** What the tab's phone told the server (`realtime.reportPhone`), in order. */
export const phoneReports: (boolean | null)[] = [];

/** The socket's own side, as far as the components use it. */
export const realtime = {
  reportPhone(registered: boolean | null) {
    phoneReports.push(registered);
  },
};
