import { setTimeout as sleep } from 'node:timers/promises';
import { timeLeftMs } from './deadline';

/**
 * The one back-off rule for contention on the table (transaction conflicts, BatchGet's unprocessed
 * keys): exponential from 50 ms with full jitter, each pause capped at 1 s ("Exponential
 * Backoff And Jitter", AWS Architecture Blog — full jitter spreads writers that met on one item
 * instead of sending them back together).
 */
export const BACKOFF = {
  baseMs: 50,
  capMs: 1_000,
  /**
   * Inside a function, another attempt is made only while this much time is left after its pause:
   * room for the attempt itself (the SDK's own transport retries included) and for the handler to
   * answer with what happened.
   */
  reserveMs: 2_000,
  /** Outside a function with a deadline (start-up, scripts, tests), the attempts in all. */
  maxAttempts: 8,
};

/** The pause after the `attempt`-th failure (1, 2, …): uniformly random below min(cap, base·2^(attempt-1)). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF.capMs, BACKOFF.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Whether another attempt may follow the `attempt`-th after a pause of `pauseMs`: within the
 * function's deadline while it leaves `reserveMs` after the pause, else up to `maxAttempts`.
 */
export function roomForAnother(attempt: number, pauseMs: number): boolean {
  const left = timeLeftMs();
  if (left === Number.POSITIVE_INFINITY) return attempt < BACKOFF.maxAttempts;
  return left - pauseMs >= BACKOFF.reserveMs;
}

/**
 * Runs `run` until it succeeds, pausing by `backoffMs` after each failure that `retryable` accepts,
 * while `roomForAnother` allows; then, or on any other failure, the last error is thrown as it is.
 */
export async function withBackoff<T>(run: (attempt: number) => Promise<T>, retryable: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!retryable(error)) throw error;
      const pause = backoffMs(attempt);
      if (!roomForAnother(attempt, pause)) throw error;
      await sleep(pause);
    }
  }
}

/**
 * Runs `attempt` until it answers something: `undefined` means "not this time" (e.g. a read-then-
 * transact step that lost to a parallel writer), tried again after the back-off while there is room.
 * Answers `undefined` when there was no room left, for the caller to say what that means.
 */
export async function untilAnswered<T>(attempt: (attempt: number) => Promise<T | undefined>): Promise<T | undefined> {
  for (let n = 1; ; n++) {
    const result = await attempt(n);
    if (result !== undefined) return result;
    const pause = backoffMs(n);
    if (!roomForAnother(n, pause)) return undefined;
    await sleep(pause);
  }
}
