import { useCallback } from 'react';

/**
 * The call widget floats in the bottom corner. So that it never covers an action, it writes how much
 * of the bottom of the screen it takes (its top edge to the bottom, in px) to this CSS variable; the
 * shell keeps that much room below the page (`main`'s bottom padding) and Conversations shortens its
 * pane by it, so every button can be scrolled clear of the widget. On a wide screen the widget keeps
 * its dock at the call button's height and lets a call's panels rise over the page (docs/product.md §10.8).
 */
export const FLOATING_DOCK_VAR = '--floating-dock';

/** A ref for the fixed element in the corner: keeps FLOATING_DOCK_VAR up to date while it is on screen. */
export function useFloatingDock() {
  return useCallback((dock: HTMLElement | null) => {
    if (!dock) return;
    const root = document.documentElement;
    const update = () => {
      const taken = Math.max(0, Math.ceil(window.innerHeight - dock.getBoundingClientRect().top));
      root.style.setProperty(FLOATING_DOCK_VAR, `${taken}px`);
    };
    update();
    // jsdom (the component tests) has no ResizeObserver; every browser the app supports has.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(dock);
    window.addEventListener('resize', update);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty(FLOATING_DOCK_VAR);
    };
  }, []);
}
