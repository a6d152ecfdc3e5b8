import { useSyncExternalStore } from 'react';

/**
 * How often the relative times on screen age: "Just now" turns "1m ago" at most this late. One timer
 * for all of them, running only while one is on screen, so a thread of hundreds costs one interval.
 */
export const CLOCK_TICK_MS = 15_000;

let ticks = 0;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => {
    ticks += 1;
    for (const l of listeners) l();
  }, CLOCK_TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * Renders the component again every CLOCK_TICK_MS while it is on screen, so what it computes from
 * `new Date()` ages. The answer is only the tick's number: the time is read when rendering, exactly.
 */
export function useClockTick(): number {
  return useSyncExternalStore(
    subscribe,
    () => ticks,
    () => ticks,
  );
}
