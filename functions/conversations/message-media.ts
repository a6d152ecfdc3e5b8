import { notFound } from '../lib/app-error';
import { contentFromTwilio } from '../settings/twilio-content';
import { findMessageRecord } from './thread';

/** Pictures of texts: the bytes of what an MMS announced, served back from Twilio. */

/** A day: a media item never changes, and only the signed-in browser that fetched it keeps it. */
const MEDIA_CACHE_SECONDS = 86_400;

/**
 * One media item of a message of the company, `index` from 0, fetched from Twilio: another company's
 * conversation or message, or no such item, is not found.
 */
export async function messageMediaContent(
  companyId: string,
  params: { id: string; messageId: string; index: string },
): Promise<{ binary: Buffer; contentType: string; cacheControl: string }> {
  const index = /^\d{1,2}$/.test(params.index) ? Number(params.index) : -1;
  const message = index >= 0 ? await findMessageRecord(companyId, params.id, params.messageId) : undefined;
  const item = message?.media?.[index];
  if (!item) throw notFound('Media not found');
  const content = await contentFromTwilio(companyId, item.url, { name: 'file' });
  return {
    binary: content.bytes,
    // The type Twilio announced with the text: what the thread shows it as.
    contentType: item.contentType,
    cacheControl: `private, max-age=${MEDIA_CACHE_SECONDS}`,
  };
}
