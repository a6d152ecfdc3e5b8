import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * Keeps the keyboard in the call widget while its content changes under it: Answer gives way to the
 * active call, End to the call button, the unavailable card's Close to the call button. When what had
 * focus there is gone, focus moves to the new content's element marked `data-dock-focus` instead of
 * falling back to the start of the page. Focus that has moved elsewhere on the page is left alone.
 * `showing` names what the widget shows; the returned function attaches the widget's corner.
 */
export function useDockFocus(showing: string) {
  const dock = useRef<HTMLElement | null>(null);
  const inside = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs each time the widget's content changes
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (!inside.current || (active && active !== document.body && active.isConnected)) return;
    dock.current?.querySelector<HTMLElement>('[data-dock-focus]')?.focus();
  }, [showing]);

  return useCallback((element: HTMLElement | null) => {
    if (!element) return;
    dock.current = element;
    const onFocusIn = () => {
      inside.current = true;
    };
    // No related target: the focused element was removed (the case to follow), or the window lost focus.
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget && !element.contains(event.relatedTarget as Node)) inside.current = false;
    };
    element.addEventListener('focusin', onFocusIn);
    element.addEventListener('focusout', onFocusOut);
    return () => {
      element.removeEventListener('focusin', onFocusIn);
      element.removeEventListener('focusout', onFocusOut);
      dock.current = null;
    };
  }, []);
}
