import { useEffect, useSyncExternalStore } from 'react';

/**
 * What the softphone widget tells the rest of the shell about a call ringing here: the desktop notice
 * of an incoming call answers it from its Answer (docs/product.md §10.5), and is shown even in a visible
 * tab while the browser blocks the ringtone. Features do not import each other (docs/architecture.md:
 * Structure and the first load), so the widget publishes it here while it is mounted.
 */
export interface RingingCall {
  /** The call ringing in this tab (as the realtime events name it), or null. */
  callSid: string | null;
  /** The browser blocks sound: the ringtone cannot be heard. */
  soundBlocked: boolean;
  answer: () => void;
}

const NONE: RingingCall = { callSid: null, soundBlocked: false, answer: () => {} };

let current: RingingCall = NONE;
const listeners = new Set<() => void>();

function publish(next: RingingCall) {
  current = next;
  for (const listener of [...listeners]) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The widget's side, withdrawn when it unmounts (sign-out). */
export function usePublishRingingCall(callSid: string | null, soundBlocked: boolean, answer: () => void) {
  useEffect(() => {
    publish({ callSid, soundBlocked, answer });
  }, [callSid, soundBlocked, answer]);
  useEffect(() => () => publish(NONE), []);
}

/** Now, outside React (an event handler). */
export const ringingCall = (): RingingCall => current;

export function useRingingCall(): RingingCall {
  return useSyncExternalStore(subscribe, () => current);
}
