/**
 * Remembers, for this tab, that the session was ended for the person (a refresh that failed), so
 * /login can say why it is showing. sessionStorage survives the full reload of the fallback redirect.
 */
const KEY = 'sessionEnded';
const REMOVED_KEY = 'accessRemoved';

/**
 * `removed`: the server's sentence for a member removed from the company, shown instead of "session
 * ended". It is also left in localStorage: the member's other tabs lose the session through the shared
 * storage without asking the server, and must say the same (docs/product.md: Removed members).
 */
export function markSessionEnded(removed?: string): void {
  try {
    window.sessionStorage.setItem(KEY, '1');
    if (removed) {
      window.sessionStorage.setItem(REMOVED_KEY, removed);
      window.localStorage.setItem(REMOVED_KEY, removed);
    }
  } catch {
    // Storage can be disabled; the notice is only a courtesy.
  }
}

export function sessionEndedNotice(): boolean {
  try {
    return window.sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** The sentence a removed member's tab was signed out with (docs/product.md: Removed members), if that was why. */
export function accessRemovedNotice(): string | null {
  try {
    return window.sessionStorage.getItem(REMOVED_KEY) ?? window.localStorage.getItem(REMOVED_KEY);
  } catch {
    return null;
  }
}

/** Someone signed in again in this browser: the removal no longer needs saying in any tab. */
export function clearAccessRemovedNotice(): void {
  try {
    window.localStorage.removeItem(REMOVED_KEY);
  } catch {
    // Nothing to clear.
  }
}

const DELETED_KEY = 'companyDeleted';

/** The company was deleted (Settings → Company): /login says so once. */
export function markCompanyDeleted(): void {
  try {
    window.sessionStorage.setItem(DELETED_KEY, '1');
  } catch {
    // Storage can be disabled; the notice is only a courtesy.
  }
}

export function companyDeletedNotice(): boolean {
  try {
    return window.sessionStorage.getItem(DELETED_KEY) === '1';
  } catch {
    return false;
  }
}

export function clearSessionEndedNotice(): void {
  try {
    window.sessionStorage.removeItem(DELETED_KEY);
    window.sessionStorage.removeItem(KEY);
    window.sessionStorage.removeItem(REMOVED_KEY);
  } catch {
    // Nothing to clear.
  }
}
