import type { Message } from '@shared/contract/conversations';
import { useEffect, useRef, useState } from 'react';
import { messagePreview } from '@/lib/message-preview';

/**
 * What a screen reader hears when a text arrives in the open thread (the list of messages is not a
 * live region: loading earlier ones would read them all out). The messages present at opening are
 * not announced.
 */
export function useArrivalAnnouncement(last: Message | undefined, from: string): string {
  const [announcement, setAnnouncement] = useState('');
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!last) return;
    if (seen.current !== undefined && seen.current !== last.id && last.direction === 'INBOUND') {
      setAnnouncement(`New message from ${from}: ${messagePreview(last)}`);
    }
    seen.current = last.id;
  }, [last, from]);
  return announcement;
}
