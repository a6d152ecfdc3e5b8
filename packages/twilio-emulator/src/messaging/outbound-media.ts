import { type MediaRecord, type MessageRecord, newSid, now } from '../model';
import type { EmulatorStore } from '../store';

/** Twilio takes at most 5 MB of media a message. https://www.twilio.com/docs/messaging/api/media-resource */
export const MAX_MESSAGE_MEDIA_BYTES = 5 * 1024 * 1024;

/** How long one MediaUrl may take to answer before the message fails. */
const FETCH_TIMEOUT_MS = 10_000;

/**
 * Twilio's codes for media it could not take as it sent: the URL could not be read (unreachable, or
 * answered other than 2xx: https://www.twilio.com/docs/api/errors/11200), it was not media
 * (https://www.twilio.com/docs/api/errors/12300), or too much of it
 * (https://www.twilio.com/docs/api/errors/30019).
 */
export const MEDIA_ERRORS = {
  retrieval: { code: 11200, message: 'HTTP retrieval failure' },
  contentType: { code: 12300, message: 'Invalid Content-Type' },
  tooLarge: { code: 30019, message: 'Content size exceeds carrier limit' },
} as const;

export type MediaFetch =
  | { ok: true; media: { record: MediaRecord; bytes: Buffer }[] }
  | { ok: false; error: { code: number; message: string } };

/**
 * Fetches an outbound MMS's MediaUrls, in order, as Twilio does when it sends: each must answer 2xx
 * with a media type, and all of them together at most MAX_MESSAGE_MEDIA_BYTES. No credentials are
 * sent: a URL must carry whatever lets Twilio read it (a presigned URL's signature).
 */
export async function fetchOutboundMedia(store: EmulatorStore, message: MessageRecord): Promise<MediaFetch> {
  const fetched: { record: MediaRecord; bytes: Buffer }[] = [];
  let total = 0;
  for (const url of message.mediaUrls ?? []) {
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch {
      return { ok: false, error: MEDIA_ERRORS.retrieval };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, error: MEDIA_ERRORS.retrieval };
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!/^(image|video|audio|text|application)\/[\w.+-]+$/.test(contentType) || contentType === 'text/html') {
      await response.body?.cancel().catch(() => {});
      return { ok: false, error: MEDIA_ERRORS.contentType };
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    total += bytes.length;
    if (total > MAX_MESSAGE_MEDIA_BYTES) return { ok: false, error: MEDIA_ERRORS.tooLarge };
    const at = now(store.clock);
    fetched.push({
      record: { sid: newSid('ME'), contentType, sourceUrl: url, size: bytes.length, dateCreated: at, dateUpdated: at },
      bytes,
    });
  }
  return { ok: true, media: fetched };
}
