import { useEffect, useSyncExternalStore } from 'react';

/**
 * The Text and Call actions of a contact row, the contact dialog and the thread header
 * (docs/product.md: New conversation). Features do not import each other: Text is an address the
 * Conversations page reads (its New message dialog, the number filled in), Call a request the call
 * widget takes (its dialer, the number filled in, placed by the softphone's own path).
 */

/** Conversations with New message open; `to` (E.164) fills in its number. */
export function newMessageHref(to?: string): string {
  const query = new URLSearchParams({ new: '1' });
  if (to) query.set('to', to);
  return `/conversations?${query}`;
}

type CallListener = (number: string) => void;
const callListeners = new Set<CallListener>();
const subscribers = new Set<() => void>();
const changed = () => {
  for (const notify of subscribers) notify();
};

/** Opens the dialer with `number` filled in; false when no call widget can place calls now. */
export function requestCall(number: string): boolean {
  for (const listener of callListeners) listener(number);
  return callListeners.size > 0;
}

/** The call widget takes requests while it can place calls. */
export function useCallRequests(listener: CallListener | null): void {
  useEffect(() => {
    if (!listener) return;
    callListeners.add(listener);
    changed();
    return () => {
      callListeners.delete(listener);
      changed();
    };
  }, [listener]);
}

/** Whether Call can do anything now: a call widget takes requests (calling is set up and idle or not). */
export function useCanCall(): boolean {
  return useSyncExternalStore(
    (notify) => {
      subscribers.add(notify);
      return () => subscribers.delete(notify);
    },
    () => callListeners.size > 0,
  );
}
