import { MAX_PICTURE_BYTES, MAX_TEXT_PICTURE_BYTES, PICTURE_URL_SECONDS, type PictureType } from '../../shared/constants';
import { formatPhoneNumber, toCountryCode } from '../../shared/phone-numbers';
import { isPictureType, pictureBlock, pictureBlockedMessage } from '../../shared/pictures';
import { defaultCountry } from '../company/settings';
import { badRequest, conflict, notFound } from '../lib/app-error';
import { inspectUpload, keepSentPicture, pictureReadUrl, sentKey, unsentKey } from '../lib/picture-bucket';
import { type ChannelRecord, enabledCapabilities } from '../settings/records';
import type { MessageMediaRecord } from './records';

/**
 * Pictures out (docs/product.md: Pictures out): the checks a text's pictures pass before anything is
 * stored or sent, and the URLs Twilio fetches them by (uploads: picture-uploads.ts). Imported only
 * by a text that carries pictures (outbound-sms.ts), so the S3 client and the phone-number metadata
 * stay out of a plain text's cold start.
 */

/** Upload ids are the product's (UUIDs, picture-uploads.ts); anything else names no upload and never reaches a key. */
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The first bytes of each picture type: what the file must begin with, whatever it was announced as. */
const SIGNATURES: Record<PictureType, readonly (readonly number[])[]> = {
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/png': [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  'image/gif': [
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  ],
};

const startsWith = (head: Buffer, signature: readonly number[]) => signature.every((byte, i) => head[i] === byte);

/** A picture checked and ready to go with a text: its type and the upload it came from. */
export interface CheckedPicture {
  uploadId: string;
  contentType: PictureType;
}

/**
 * Checks a text's pictures before anything is stored: each is an upload of the caller's company (404
 * otherwise, so another company's id is not found either), a JPEG, PNG or GIF of at most
 * MAX_PICTURE_BYTES that begins as one, all of them MAX_TEXT_PICTURE_BYTES at most together (400), and pictures may go from `channel` to `to` (409, the
 * composer's sentence, the number as the company reads it).
 */
export async function checkPictures(
  companyId: string,
  pictureIds: readonly string[],
  route: { channel: ChannelRecord; to: string },
): Promise<CheckedPicture[]> {
  const { channel } = route;
  const block = pictureBlock({ identifier: channel.identifier, mms: enabledCapabilities(channel).mms }, route.to);
  if (block) {
    const country = toCountryCode(await defaultCountry(companyId));
    throw conflict(pictureBlockedMessage(block, formatPhoneNumber(channel.identifier, country)));
  }
  const found = await Promise.all(
    pictureIds.map(async (uploadId) => ({
      uploadId,
      upload: UPLOAD_ID.test(uploadId) ? await inspectUpload(unsentKey(companyId, uploadId)) : undefined,
    })),
  );
  const checked = found.map(({ uploadId, upload }, index) => {
    if (!upload) throw notFound('Picture not found');
    const which = pictureIds.length > 1 ? `Picture ${index + 1}` : 'The picture';
    const { contentType, size, head } = upload;
    if (!isPictureType(contentType)) throw badRequest(`${which} is not a JPEG, PNG or GIF image.`);
    if (size > MAX_PICTURE_BYTES) {
      throw badRequest(`${which} is larger than ${MAX_PICTURE_BYTES / (1024 * 1024)} MB.`);
    }
    if (!SIGNATURES[contentType].some((signature) => startsWith(head, signature))) {
      throw badRequest(`${which} is not the ${contentType.slice('image/'.length).toUpperCase()} image it was uploaded as.`);
    }
    return { uploadId, contentType, size };
  });
  // Twilio fails an MMS whose media are larger together (error 11751): refused before anything is stored.
  if (checked.reduce((sum, picture) => sum + picture.size, 0) > MAX_TEXT_PICTURE_BYTES) {
    throw badRequest(
      `The pictures are larger than ${MAX_TEXT_PICTURE_BYTES / (1024 * 1024)} MB together, Twilio's limit for one text. Send some in another text.`,
    );
  }
  return checked.map(({ uploadId, contentType }) => ({ uploadId, contentType }));
}

/** Keeps the checked uploads as the company's sent pictures: the message's media, in the order attached. */
export async function keepPictures(companyId: string, pictures: readonly CheckedPicture[]): Promise<MessageMediaRecord[]> {
  return Promise.all(
    pictures.map(async ({ uploadId, contentType }) => {
      const key = sentKey(companyId, uploadId);
      await keepSentPicture(unsentKey(companyId, uploadId), key);
      return { contentType, key };
    }),
  );
}

/** The URLs Twilio fetches a message's sent pictures by, good for PICTURE_URL_SECONDS (docs/product.md: Pictures out). */
export function mediaUrlsForTwilio(media: readonly MessageMediaRecord[]): Promise<string[]> {
  return Promise.all(media.flatMap((item) => (item.key ? [pictureReadUrl(item.key, PICTURE_URL_SECONDS)] : [])));
}
