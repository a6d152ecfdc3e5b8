import { useCallback, useState } from 'react';

/**
 * Getting Started, once dismissed, stays dismissed for that user (docs/product.md §2.4). It is kept in
 * this browser's storage, under the user's id: it is a matter of taste with nothing to protect, that
 * nothing else reads, so it needs no route and no table item; and it is not one of the session's keys,
 * so signing out keeps it. Another browser shows the card once more, all ticked, to dismiss again.
 */
export const gettingStartedKey = (userId: string) => `switchboard.gettingStarted.dismissed.${userId}`;

function stored(userId: string): boolean {
  try {
    return window.localStorage.getItem(gettingStartedKey(userId)) === '1';
  } catch {
    return false;
  }
}

export function useGettingStartedDismissed(userId: string) {
  const [dismissed, setDismissed] = useState(() => stored(userId));
  const dismiss = useCallback(() => {
    setDismissed(true);
    try {
      window.localStorage.setItem(gettingStartedKey(userId), '1');
    } catch {
      // Storage can be full or disabled: it stays dismissed for this visit.
    }
  }, [userId]);
  return { dismissed, dismiss };
}
