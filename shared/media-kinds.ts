/**
 * What a message's media are, in a word, and how a line says so (docs/product.md: Conversations): the
 * list's preview, a notice and the screen reader's arrival all read "Photo", "2 photos", "PDF" or
 * "Attachment" for a message without text. The API keeps each item's kind in the conversation's
 * `lastMessage.mediaKinds`, so the list needs no content types; both ends take them from here.
 */

export const MEDIA_KINDS = ['photo', 'video', 'audio', 'pdf', 'file'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The kind of one item by its content type (parameters and case ignored). */
export function mediaKind(contentType: string): MediaKind {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.startsWith('image/')) return 'photo';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf') return 'pdf';
  return 'file';
}

const NAMES: Record<MediaKind, [one: string, many: string]> = {
  photo: ['Photo', 'photos'],
  video: ['Video', 'videos'],
  audio: ['Audio', 'audio files'],
  pdf: ['PDF', 'PDFs'],
  file: ['Attachment', 'attachments'],
};

/**
 * "Photo", "2 photos", "PDF", "Attachment", "3 attachments" (kinds that differ are attachments).
 * `count` items of unknown kind (a conversation stored before kinds were kept) were pictures: that is
 * all the app could receive then.
 */
export function mediaSummary(kinds: readonly MediaKind[] | undefined, count = kinds?.length ?? 0): string {
  const known = kinds && kinds.length > 0 ? kinds : Array.from({ length: count }, () => 'photo' as const);
  const [first] = known;
  if (!first) return '';
  const kind = known.every((k) => k === first) ? first : 'file';
  const [one, many] = NAMES[kind];
  return known.length === 1 ? one : `${known.length} ${many}`;
}
