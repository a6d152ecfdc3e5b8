import { afterEach, describe, expect, it } from 'vitest';
import {
  isMissingCodeError,
  RELOAD_GUARD_MS,
  RELOADED_FOR_NEW_VERSION_KEY,
  recoverFromMissingCode,
  resetNewVersionState,
} from './new-version';

afterEach(() => resetNewVersionState());

/** A tab's sessionStorage and its reloads: a new page of the same tab keeps the first, not this module's state. */
function tab() {
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => items.set(key, value),
  };
  const reloads: number[] = [];
  return { storage, reloads, reload: (now: number) => () => reloads.push(now) };
}

describe('a chunk that did not load (docs/product.md: A new version while a tab is open)', () => {
  it('reloads the tab once, and says so only once however often the code fails in that page', () => {
    const { storage, reloads, reload } = tab();
    expect(recoverFromMissingCode({ now: 1_000, storage, reload: reload(1_000), unsavedWork: false, online: true })).toBe(
      'reloading',
    );
    expect(recoverFromMissingCode({ now: 1_001, storage, reload: reload(1_001), unsavedWork: false, online: true })).toBe(
      'reloading',
    );
    expect(reloads).toEqual([1_000]);
    expect(storage.getItem(RELOADED_FOR_NEW_VERSION_KEY)).toBe('1000');
  });

  it('shows the notice instead when the page reloaded for a new version moments ago: never a reload loop', () => {
    const { storage, reloads, reload } = tab();
    recoverFromMissingCode({ now: 1_000, storage, reload: reload(1_000), unsavedWork: false, online: true });
    resetNewVersionState(); // the reloaded page
    const soon = 1_000 + RELOAD_GUARD_MS - 1;
    expect(recoverFromMissingCode({ now: soon, storage, reload: reload(soon), unsavedWork: false, online: true })).toBe('notice');
    expect(reloads).toEqual([1_000]);
  });

  it('reloads again for a later release, once the last reload is past the guard', () => {
    const { storage, reloads, reload } = tab();
    recoverFromMissingCode({ now: 1_000, storage, reload: reload(1_000), unsavedWork: false, online: true });
    resetNewVersionState();
    const later = 1_000 + RELOAD_GUARD_MS;
    expect(recoverFromMissingCode({ now: later, storage, reload: reload(later), unsavedWork: false, online: true })).toBe(
      'reloading',
    );
    expect(reloads).toEqual([1_000, later]);
  });

  it('keeps a draft or a call: with unsaved work the tab shows the notice and does not reload', () => {
    const { storage, reloads, reload } = tab();
    expect(recoverFromMissingCode({ now: 1_000, storage, reload: reload(1_000), unsavedWork: true, online: true })).toBe(
      'notice',
    );
    expect(reloads).toEqual([]);
    expect(storage.getItem(RELOADED_FOR_NEW_VERSION_KEY)).toBeNull();
  });

  it('shows the notice when the tab cannot note its reload (storage refused), rather than risk a loop', () => {
    const { reloads, reload } = tab();
    const refused = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(
      recoverFromMissingCode({ now: 1_000, storage: refused, reload: reload(1_000), unsavedWork: false, online: true }),
    ).toBe('notice');
    expect(reloads).toEqual([]);
  });

  it("does nothing offline, where a reload would show the browser's error page; online again, it reloads", () => {
    const { storage, reloads, reload } = tab();
    expect(recoverFromMissingCode({ now: 1_000, storage, reload: reload(1_000), unsavedWork: false, online: false })).toBe(
      'current',
    );
    expect(recoverFromMissingCode({ now: 2_000, storage, reload: reload(2_000), unsavedWork: false, online: true })).toBe(
      'reloading',
    );
    expect(reloads).toEqual([2_000]);
  });

  it.each([
    ['Chromium', 'Failed to fetch dynamically imported module: https://app.example/assets/contacts-page-a1b2c3d4.js'],
    ['Firefox', 'error loading dynamically imported module: https://app.example/assets/contacts-page-a1b2c3d4.js'],
    ['Safari', 'Importing a module script failed.'],
    ['Vite, a stylesheet', 'Unable to preload CSS for /assets/index-a1b2c3d4.css'],
  ])('knows missing code as %s words it', (_browser, message) => {
    expect(isMissingCodeError(new TypeError(message))).toBe(true);
  });

  it('tells other errors apart', () => {
    expect(isMissingCodeError(new TypeError("Cannot read properties of undefined (reading 'name')"))).toBe(false);
    expect(isMissingCodeError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
