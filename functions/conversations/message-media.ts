import { servedAttachment } from '../../shared/attachments';
import { seesWholeCompany } from '../../shared/visibility';
import { notFound } from '../lib/app-error';
import type { BinaryReply } from '../lib/define-handler';
import { contentFromTwilio } from '../settings/twilio-content';
import { findMessageRecord } from './thread';
import { findVisibleConversation, type Reader } from './visible-conversation';

/** Pictures of texts: the bytes of what an MMS announced, served back from Twilio. */

/**
 * Kept by no cache, the browser's included: after sign-out, a member's removal, the company's
 * deletion or its retention the picture must not be shown again (docs/security.md: Media in the browser).
 */
const MEDIA_CACHE_CONTROL = 'private, no-store';

/**
 * How long the URL a reader is sent to stays good: they follow it at once; the thread asks again
 * (a new URL) whenever it shows the picture again.
 */
const READER_URL_SECONDS = 60;

/**
 * One media item of a message of the company, `index` from 0: a received one fetched from Twilio; a
 * sent picture by a 302 to a short-lived URL of the private bucket, since a function's answer cannot
 * carry 5 MB (docs/product.md: Pictures out). Another company's conversation or message, one the
 * reader may not see (docs/product.md: Who sees what), or no such item, is not found alike.
 */
export async function messageMediaContent(
  reader: Reader,
  params: { id: string; messageId: string; index: string },
): Promise<BinaryReply> {
  const { companyId } = reader;
  const index = /^\d{1,2}$/.test(params.index) ? Number(params.index) : -1;
  const [message, visible] =
    index >= 0
      ? await Promise.all([findMessageRecord(companyId, params.id, params.messageId), seesConversation(reader, params.id)])
      : [undefined, false];
  const item = message?.media?.[index];
  if (!item || !visible) throw notFound('Media not found');
  if (item.key !== undefined) {
    const { pictureReadUrl } = await import('../lib/picture-bucket');
    // Not kept: the URL it names stops working within READER_URL_SECONDS.
    return { redirect: await pictureReadUrl(item.key, READER_URL_SECONDS), cacheControl: 'private, no-store' };
  }
  const content = await contentFromTwilio(companyId, item.url, { name: 'file' });
  return {
    binary: content.bytes,
    // The sender chose the announced type: a browser renders only what the thread shows inline, and
    // saves anything else under a name of ours (docs/security.md: Attachments).
    ...servedAttachment(item.contentType, index),
    cacheControl: MEDIA_CACHE_CONTROL,
  };
}

/** Owners and admins see every conversation of their company: only an agent's view costs reads. */
async function seesConversation(reader: Reader, conversationId: string): Promise<boolean> {
  if (seesWholeCompany(reader.role)) return true;
  return (await findVisibleConversation(reader, conversationId)) !== undefined;
}
