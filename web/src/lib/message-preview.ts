/**
 * What a message says in a line (the list's preview, a notice, the screen reader's arrival): its text,
 * or "Photo" when it is pictures only.
 */
export function messagePreview(message: { body: string; mediaCount?: number; media?: readonly unknown[] }): string {
  const media = message.mediaCount ?? message.media?.length ?? 0;
  return message.body === '' && media > 0 ? 'Photo' : message.body;
}
