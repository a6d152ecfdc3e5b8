import type { Message } from '@shared/contract/conversations';
import { useEffect, useRef } from 'react';
import { useDocumentVisible } from '@/hooks/use-document-visible';
import { showThread } from '@/lib/thread-on-screen';
import { useMarkRead } from '../api/conversations-api';

/** What counts as unread for the viewer: a text from the contact, or a colleague's note mentioning them. */
const counts = (message: Message, viewerId: string | undefined) =>
  message.type === 'NOTE'
    ? message.sentBy?.id !== viewerId && message.mentions.some((m) => m.id === viewerId)
    : message.direction === 'INBOUND';

/**
 * While the thread is on screen and the tab visible, the conversation is marked read: once
 * when it opens (or the tab comes back) with unread messages, and once per arrival of a new one while
 * reading (events then leave its count at 0: lib/realtime/event-cache). One request per arrival, never
 * a loop: a failed one is not repeated until something new arrives.
 */
export function useMarkReadOnScreen(
  conversationId: string,
  unreadCount: number | undefined,
  messages: Message[],
  viewerId: string | undefined,
) {
  const visible = useDocumentVisible();
  const markRead = useMarkRead(conversationId);
  const mark = useRef(markRead.mutate);
  mark.current = markRead.mutate;
  const newest = messages.findLast((m) => counts(m, viewerId))?.id ?? null;
  /** The newest counting message when the thread last looked (undefined: not loaded yet). */
  const seen = useRef<string | null | undefined>(undefined);
  /** What was last asked for, so a refusal or a repeated render never asks again. */
  const asked = useRef<string | null>(null);

  useEffect(() => showThread(conversationId), [conversationId]);

  useEffect(() => {
    if (unreadCount === undefined || !visible) return;
    const arrived = seen.current !== undefined && newest !== seen.current;
    seen.current = newest;
    const key = `${newest}:${unreadCount}`;
    if ((unreadCount > 0 || arrived) && asked.current !== key) {
      asked.current = key;
      mark.current();
    }
  }, [unreadCount, newest, visible]);
}
