import { useEffect } from 'react';

/** The components that hold input of the person's that a reload would lose. */
const holders = new Set<symbol>();

/** Whether something on the page holds unsaved input (a composer's draft, pictures attached to it). */
export const hasUnsavedInput = () => holders.size > 0;

/**
 * While `unsaved` is true, the page holds input that only lives in this tab: a new release then shows
 * its notice rather than reloading by itself (docs/product.md: A new version while a tab is open).
 */
export function useUnsavedInput(unsaved: boolean) {
  useEffect(() => {
    if (!unsaved) return;
    const holder = Symbol('unsaved input');
    holders.add(holder);
    return () => {
      holders.delete(holder);
    };
  }, [unsaved]);
}
