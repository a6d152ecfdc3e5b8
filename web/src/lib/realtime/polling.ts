import type { ConnectionState } from './realtime-client';

/**
 * While the socket is connected its events keep every screen fresh, so the refetch intervals of
 * docs/product.md §9 are only the fallback (docs/product.md: Realtime): a connected tab reads just this
 * often, to heal a push that was lost on the way (a failed delivery the server only logs). Thirty
 * minutes is two reads an hour per screen, against sixty; a lost event is rare, and every reconnect
 * refreshes the caches at once anyway.
 */
export const RECONCILIATION_MS = 30 * 60_000;

/**
 * The one rule every polled query follows: its own interval (`fallbackMs`) while the socket is down,
 * the slow reconciliation read while it is up. `false` (the query's own "no polling") stays as it is.
 */
export function pollingInterval(socket: ConnectionState, fallbackMs: number | false): number | false {
  if (fallbackMs === false) return false;
  return socket === 'connected' ? Math.max(fallbackMs, RECONCILIATION_MS) : fallbackMs;
}
