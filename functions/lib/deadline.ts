import { AsyncLocalStorage } from 'node:async_hooks';
import { reportTimeUsed } from './metrics';

/**
 * When the running function will be stopped (Lambda's timeout), so that a call to the outside gives
 * up in time for the handler to answer with what happened — and to undo what it started — rather than
 * being stopped mid-way.
 */
const deadlines = new AsyncLocalStorage<number>();

/**
 * Runs `run` with the function's deadline `remainingMs` ahead, and reports how much of that time it
 * used when it used much of it: the alarm on functions near their timeout reads that
 * (lib/metrics.ts).
 */
export async function withDeadline<T>(remainingMs: number | undefined, run: () => Promise<T>): Promise<T> {
  if (remainingMs === undefined) return run();
  const started = Date.now();
  try {
    return await deadlines.run(started + remainingMs, run);
  } finally {
    reportTimeUsed(Date.now() - started, remainingMs);
  }
}

/**
 * How long an outside call may take: at most `limitMs`, and never into the last third of the time
 * left (at most 5 s of it), which is kept for recording the outcome and undoing.
 */
export function callBudgetMs(limitMs: number): number {
  const deadline = deadlines.getStore();
  if (deadline === undefined) return limitMs;
  const left = deadline - Date.now();
  return Math.max(1, Math.floor(Math.min(limitMs, left - Math.min(5_000, left / 3))));
}

/** Milliseconds until the running function is stopped; Infinity outside a function with a deadline. */
export function timeLeftMs(): number {
  const deadline = deadlines.getStore();
  return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
}
