import { useEffect } from 'react';

/** What a reload of the tab would lose: a draft (a composer's text, pictures attached to it) or a call. */
export type UnsavedWork = 'draft' | 'call';

/** The components that hold such work now. */
const holders = new Map<symbol, UnsavedWork>();

/** What the page holds that only lives in this tab, if anything: a call first, as a reload would end it. */
export function unsavedWork(): UnsavedWork | null {
  const kinds = new Set(holders.values());
  return kinds.has('call') ? 'call' : kinds.has('draft') ? 'draft' : null;
}

/**
 * While `holding` is true, the page holds work of this kind that only lives in this tab: a new release
 * then shows its notice rather than reloading by itself (docs/product.md: A new version while a tab is open).
 */
export function useUnsavedWork(kind: UnsavedWork, holding: boolean) {
  useEffect(() => {
    if (!holding) return;
    const holder = Symbol(kind);
    holders.set(holder, kind);
    return () => {
      holders.delete(holder);
    };
  }, [kind, holding]);
}
