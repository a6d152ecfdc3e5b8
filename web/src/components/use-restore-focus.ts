import { useLayoutEffect, useRef } from 'react';

/**
 * Remembers what had focus when a dialog opened and gives it back when the dialog closes. Radix only
 * does this for its own Trigger; these dialogs are opened from buttons in lists, menus and other
 * dialogs, so the wrapper does it for every one.
 */
export function useRestoreFocus(open: boolean) {
  const previous = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) previous.current = document.activeElement;
  }, [open]);
  return (event: Event) => {
    const target = previous.current;
    previous.current = null;
    // Never Radix's fallback (<body>): when the opener is gone (Connect, replaced by the connected
    // card), the page has already put focus where it belongs.
    event.preventDefault();
    if (target?.isConnected) target.focus();
  };
}
