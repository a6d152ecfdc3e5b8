/**
 * The object URLs the app makes of a picture's, a recording's or a chosen file's bytes: each lives
 * until its user lets go of it, and at the latest until the session ends, when every one still held is
 * revoked, so nothing of the signed-out session can be shown again (docs/security.md: Media in the browser).
 */
const held = new Set<string>();

export function makeObjectUrl(blob: Blob): string {
  const url = URL.createObjectURL(blob);
  held.add(url);
  return url;
}

export function revokeObjectUrl(url: string): void {
  held.delete(url);
  URL.revokeObjectURL(url);
}

/** At sign-out (this tab's or another's): every object URL still held. */
export function revokeAllObjectUrls(): void {
  for (const url of held) URL.revokeObjectURL(url);
  held.clear();
}
