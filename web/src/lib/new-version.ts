import { useSyncExternalStore } from 'react';
import { unsavedWork } from './unsaved-work';

/**
 * A tab opened before a release asks for code of its own release; each release keeps the hashed files
 * of those before (docs/deploy.md: Releases and open tabs), but a tab may be older still, or a file may
 * fail to arrive. Then the page reloads itself once, into the release now deployed, or says "A new
 * version is available" with a Reload button (docs/product.md: A new version while a tab is open).
 */

/** sessionStorage: when this tab last reloaded itself for a new version. */
export const RELOADED_FOR_NEW_VERSION_KEY = 'newVersionReloadedAt';
/**
 * A file missing again this soon after a reload for one is not fixed by reloading again: the notice
 * instead, so a broken release never has the tab reload in a loop.
 */
export const RELOAD_GUARD_MS = 5 * 60_000;

/** The messages browsers give a module that failed to load: Chromium, Firefox, Safari, and Vite's CSS preload. */
const MISSING_CODE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** Whether an error is code of the app that did not load (a chunk of a release no longer deployed). */
export const isMissingCodeError = (error: unknown) => error instanceof Error && MISSING_CODE.test(error.message);

/** `current`: nothing happened; `reloading`: the tab is loading the new release; `notice`: it says so and waits. */
export type NewVersionState = 'current' | 'reloading' | 'notice';

let state: NewVersionState = 'current';
/** Notices shown in place of a page: the floating one then stays away, so there is one Reload button. */
let inPlaceNotices = 0;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export interface RecoveryOptions {
  now?: number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  reload?: () => void;
  /** Whether the page holds work a reload would lose, a draft or a call (default: unsaved-work.ts). */
  unsavedWork?: boolean;
  /** Whether the browser is online (default: navigator.onLine): offline, a reload would show the browser's error page. */
  online?: boolean;
}

/**
 * After code failed to load: reloads the tab, once, unless it holds a draft or a call, or reloaded for a
 * new version less than RELOAD_GUARD_MS ago; then the notice. Called again, it changes nothing.
 */
export function recoverFromMissingCode(options: RecoveryOptions = {}): NewVersionState {
  if (state !== 'current') return state;
  const {
    now = Date.now(),
    storage = window.sessionStorage,
    reload = () => window.location.reload(),
    unsavedWork: holdsWork = unsavedWork() !== null,
    online = navigator.onLine,
  } = options;
  // Offline, the file is not gone but out of reach: the page says so (NewVersionInPlace), and a later
  // failure, once online, may still reload.
  if (!online) return state;
  const reloadedAt = Number(readItem(storage));
  const reloadedRecently = reloadedAt > 0 && Math.abs(now - reloadedAt) < RELOAD_GUARD_MS;
  if (holdsWork || reloadedRecently || !writeItem(storage, String(now))) {
    state = 'notice';
  } else {
    state = 'reloading';
    reload();
  }
  changed();
  return state;
}

// Storage can be refused (a browser's privacy settings): without it a reload could not be counted.
function readItem(storage: Pick<Storage, 'getItem'>) {
  try {
    return storage.getItem(RELOADED_FOR_NEW_VERSION_KEY);
  } catch {
    return null;
  }
}
function writeItem(storage: Pick<Storage, 'setItem'>, value: string) {
  try {
    storage.setItem(RELOADED_FOR_NEW_VERSION_KEY, value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Vite's `vite:preloadError`: a chunk or its stylesheet failed to load, on the way to any page or part
 * of one. The error still reaches the code that imported it (its boundary shows what happens).
 */
export function listenForMissingCode(target: Window = window) {
  const onPreloadError = () => void recoverFromMissingCode();
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}

export const useNewVersionState = () => useSyncExternalStore(subscribe, () => state);

/** Whether a notice stands in place of a page (the floating notice then stays away). */
export const useNoticeInPlace = () => useSyncExternalStore(subscribe, () => inPlaceNotices > 0);

/** A notice in place of a page is shown: returns the function that says it is gone. */
export function noticeInPlaceShown() {
  inPlaceNotices += 1;
  changed();
  return () => {
    inPlaceNotices -= 1;
    changed();
  };
}

/** Tests: a fresh page. */
export function resetNewVersionState() {
  state = 'current';
  inPlaceNotices = 0;
  changed();
}
