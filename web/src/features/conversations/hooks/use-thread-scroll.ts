import { useLayoutEffect, useRef } from 'react';

/** How close to the bottom still counts as reading the newest messages. */
const NEAR_BOTTOM_PX = 80;

/**
 * Keeps a thread's scroll where a reader expects it: at the newest message when it opens, when a
 * message arrives while they are at the bottom and when they send one (`lastIsOwn`), and in place when
 * earlier messages are added above.
 */
export function useThreadScroll(firstId: string | undefined, lastId: string | undefined, lastIsOwn: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const seen = useRef<{ firstId?: string; lastId?: string; height: number; top: number; atBottom: boolean }>({
    height: 0,
    top: 0,
    atBottom: true,
  });

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const before = seen.current;
    if (firstId !== before.firstId && lastId === before.lastId && before.height > 0) {
      element.scrollTop = before.top + (element.scrollHeight - before.height);
    } else if (lastId !== before.lastId && (before.atBottom || before.lastId === undefined || lastIsOwn)) {
      element.scrollTop = element.scrollHeight;
    }
    seen.current = { firstId, lastId, height: element.scrollHeight, top: element.scrollTop, atBottom: isAtBottom(element) };
  }, [firstId, lastId, lastIsOwn]);

  const onScroll = () => {
    const element = ref.current;
    if (!element) return;
    seen.current = { ...seen.current, height: element.scrollHeight, top: element.scrollTop, atBottom: isAtBottom(element) };
  };

  return { ref, onScroll };
}

const isAtBottom = (element: HTMLElement) => element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
