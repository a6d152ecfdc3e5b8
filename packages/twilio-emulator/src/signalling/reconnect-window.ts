import { randomUUID } from 'node:crypto';

/**
 * The longest time a call waits for its device's signalling to come back: the SDK sends at most 30 s
 * (`reconnectTimeout` in `listen` is `min(ceil(maxCallSignalingTimeoutMs / 1000), 30)`, PStream's
 * MAX_RECONNECT_TIMEOUT_ALLOWED), and its CHANGELOG (2.1.0, signaling reconnection) speaks of a call
 * recovered "up to 30 seconds".
 */
export const MAX_RECONNECT_TIMEOUT_S = 30;

/**
 * How long a device's answered calls outlive its socket: the `reconnectTimeout` of its `listen`, in
 * whole seconds up to 30. The SDK sends 0 unless `maxCallSignalingTimeoutMs` is set, and Twilio then
 * ends the call with the socket ("Twilio will not terminate the call until the timeout has expired",
 * the SDK's docs of that option).
 */
export function reconnectWindowMs(reconnectTimeout: unknown): number {
  if (typeof reconnectTimeout !== 'number' || !Number.isFinite(reconnectTimeout) || reconnectTimeout <= 0) return 0;
  return Math.min(Math.ceil(reconnectTimeout), MAX_RECONNECT_TIMEOUT_S) * 1000;
}

/** The opaque token a call's `answer` (outgoing) or `invite` (incoming) carries as `reconnect`. */
export const reconnectToken = () => randomUUID();

/**
 * Calls whose device's socket went away, each held under its reconnect token until the device comes
 * back with it (`release`) or the window ends (`end` is called).
 */
export function heldCalls() {
  const held = new Map<string, ReturnType<typeof setTimeout>>();
  return {
    hold(token: string, windowMs: number, end: () => void) {
      clearTimeout(held.get(token));
      if (windowMs <= 0) {
        held.delete(token);
        end();
        return;
      }
      held.set(
        token,
        setTimeout(() => {
          held.delete(token);
          end();
        }, windowMs),
      );
    },
    /** The call came back, or ended: it is no longer held. */
    release(token: string) {
      clearTimeout(held.get(token));
      held.delete(token);
    },
    stop() {
      for (const timer of held.values()) clearTimeout(timer);
      held.clear();
    },
  };
}
