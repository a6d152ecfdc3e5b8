/**
 * Which conversation's thread is on screen, so an event for it does not count as unread
 * while the person is reading it: the thread marks it read instead (features/conversations).
 */
let shown: string | null = null;

/** The thread says it is on screen; the returned function says it left. */
export function showThread(id: string): () => void {
  shown = id;
  return () => {
    if (shown === id) shown = null;
  };
}

/** The thread is on screen in a visible tab. */
export function isReadingThread(id: string): boolean {
  return shown === id && document.visibilityState === 'visible';
}
