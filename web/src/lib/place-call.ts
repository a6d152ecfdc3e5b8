import { useEffect, useSyncExternalStore } from 'react';

/**
 * How a screen outside the softphone places a call: Call History's Call back dials through the
 * softphone's own dial path; a contact's Call opens its dialer with the number filled in, for the agent
 * to pick the caller ID. The widget publishes both here while it is mounted, with why calling is not
 * possible now when it is not. Features do not import each other (docs/architecture.md: Structure and
 * the first load).
 */
export interface CallPlacer {
  /** Why a call cannot be placed now, as the button says it; null when it can. */
  unavailableReason: string | null;
  /** Places the call from `from` (a caller ID) to `to` (E.164); an error message, or null once it is under way. */
  dial: (to: string, from: string) => Promise<string | null>;
  /** Opens the dialer with `to` (E.164) filled in. */
  openDialer: (to: string) => void;
}

/** Before the widget knows: the company's calling is still being checked, or there is no Twilio account. */
export const CALLING_NOT_SET_UP = 'Calling is not set up: connect Twilio in Settings → Providers.';

const NONE: CallPlacer = { unavailableReason: CALLING_NOT_SET_UP, dial: async () => CALLING_NOT_SET_UP, openDialer: () => {} };

let current: CallPlacer = NONE;
const listeners = new Set<() => void>();

function publish(placer: CallPlacer) {
  current = placer;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The softphone widget's side: what it can do now, withdrawn when it unmounts (sign-out). */
export function usePublishCallPlacer(
  unavailableReason: string | null,
  dial: CallPlacer['dial'],
  openDialer: CallPlacer['openDialer'],
) {
  useEffect(() => {
    publish({ unavailableReason, dial, openDialer });
  }, [unavailableReason, dial, openDialer]);
  useEffect(() => () => publish(NONE), []);
}

/** A screen's side: the current way to place a call, and why not when it cannot. */
export function usePlaceCall(): CallPlacer {
  return useSyncExternalStore(subscribe, () => current);
}
