import { type MediaKind, mediaKind, mediaSummary } from '@shared/media-kinds';

/**
 * What a message says in a line (the list's preview, a notice, the screen reader's arrival): its text,
 * or, without text, what was sent: "Photo", "2 photos", "PDF", "Attachment" (shared/media-kinds.ts) —
 * from the list's `mediaKinds` and `mediaCount`, or a message's own media.
 */
export function messagePreview(message: {
  body: string;
  mediaCount?: number;
  mediaKinds?: readonly MediaKind[];
  media?: readonly { contentType: string }[];
}): string {
  if (message.body !== '') return message.body;
  const kinds = message.mediaKinds ?? message.media?.map((m) => mediaKind(m.contentType));
  return mediaSummary(kinds, message.mediaCount ?? kinds?.length ?? 0);
}

/** Before an outbound preview: whose it is, "You: " for the reader's own, a colleague's first name for theirs. */
export function previewSender(
  last: { direction: 'INBOUND' | 'OUTBOUND'; sentBy?: { id: string; name: string } },
  viewerId: string | undefined,
): string {
  if (last.direction !== 'OUTBOUND') return '';
  // Stored before senders were kept: sent by the team, nobody named (no guess: not "You").
  if (!last.sentBy) return 'Sent: ';
  if (last.sentBy.id === viewerId) return 'You: ';
  return `${last.sentBy.name.trim().split(/\s+/)[0] || last.sentBy.name}: `;
}
