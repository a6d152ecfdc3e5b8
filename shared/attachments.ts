/**
 * How an attachment of a text is shown and served, by the content type its sender announced
 * (docs/product.md: Attachments; docs/security.md: Attachments): the media proxy and the thread read
 * this one rule. The sender chooses the type, so only types a browser renders as data, never as a page
 * or a program, are shown in the page; PDF and vCard are offered as downloads named by their type
 * (never by anything the sender wrote); anything else is only listed.
 */

/** Shown in the thread (and served `inline`): pictures, recordings and videos a browser plays as media. */
const INLINE_TYPES = {
  photo: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp'],
  audio: ['audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/ogg', 'audio/wav', 'audio/x-wav', 'audio/webm'],
  video: ['video/mp4', 'video/webm', 'video/ogg', 'video/3gpp', 'video/quicktime'],
} as const;

/** Offered as a download, under the name and extension of their type. */
const DOWNLOAD_TYPES: Record<string, { label: string; extension: string; servedAs: string }> = {
  'application/pdf': { label: 'PDF', extension: 'pdf', servedAs: 'application/pdf' },
  'text/vcard': { label: 'vCard', extension: 'vcf', servedAs: 'text/vcard' },
  'text/x-vcard': { label: 'vCard', extension: 'vcf', servedAs: 'text/vcard' },
  'text/directory': { label: 'vCard', extension: 'vcf', servedAs: 'text/vcard' },
};

export type Attachment =
  | { show: 'inline'; kind: keyof typeof INLINE_TYPES; type: string }
  | { show: 'download'; label: string; extension: string; type: string }
  | { show: 'listed'; type: string };

/** `type/subtype` of a content type, lower case, without parameters; what a person is shown of it. */
export function attachmentType(contentType: string): string {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  // As announced it may be anything; what is shown of it is a plain MIME type or nothing.
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/.test(type) ? type : 'unknown type';
}

export function attachmentOf(contentType: string): Attachment {
  const type = attachmentType(contentType);
  for (const [kind, types] of Object.entries(INLINE_TYPES) as [keyof typeof INLINE_TYPES, readonly string[]][]) {
    if (types.includes(type)) return { show: 'inline', kind, type };
  }
  const download = DOWNLOAD_TYPES[type];
  if (download) return { show: 'download', label: download.label, extension: download.extension, type: download.servedAs };
  return { show: 'listed', type };
}

/** The line the thread shows for an attachment it neither shows nor offers. */
export const notShownLine = (type: string) => `Attachment not shown (${type})`;

/**
 * How the media route serves an attachment (the `index`th of its message, from 0): its type, and a
 * Content-Disposition that lets a browser render only what the thread shows inline; a download is
 * named `attachment-<n>.<extension of its type>`; anything else is plain bytes to be saved, if at all.
 */
export function servedAttachment(contentType: string, index: number): { contentType: string; contentDisposition: string } {
  const attachment = attachmentOf(contentType);
  if (attachment.show === 'inline') return { contentType: attachment.type, contentDisposition: 'inline' };
  if (attachment.show === 'download') {
    return {
      contentType: attachment.type,
      contentDisposition: `attachment; filename="attachment-${index + 1}.${attachment.extension}"`,
    };
  }
  return { contentType: 'application/octet-stream', contentDisposition: 'attachment' };
}
