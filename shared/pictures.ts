import { PICTURE_TYPES, type PictureType } from './constants';
import { parsePhoneNumber } from './phone-numbers';
import { type PictureBlock, type PictureSender, pictureBlockByPrefix } from './picture-block';

export { PICTURE_BLOCKS, type PictureBlock } from './picture-block';

/**
 * Where a text may carry pictures (docs/product.md: Pictures out). Twilio sends MMS between US and
 * Canadian numbers only (https://help.twilio.com/articles/223133707); elsewhere it would not arrive as a
 * picture. One rule for the composer and the API.
 */
export const MMS_COUNTRIES = ['US', 'CA'] as const;

const inMmsCountry = (e164: string) => {
  const country = parsePhoneNumber(e164)?.country;
  return country !== undefined && (MMS_COUNTRIES as readonly string[]).includes(country);
};

/** Why pictures cannot go from this sending number to `to` (E.164); null when they can. */
export function pictureBlock(from: PictureSender, to: string): PictureBlock | null {
  const byPrefix = pictureBlockByPrefix(from, to);
  if (byPrefix) return byPrefix;
  if (!inMmsCountry(from.identifier)) return 'CHANNEL_WITHOUT_MMS';
  if (!inMmsCountry(to)) return 'COUNTRY_WITHOUT_MMS';
  return null;
}

/** What the composer and a refused send (409) say; `number` as people read it. */
export function pictureBlockedMessage(block: PictureBlock, number: string): string {
  switch (block) {
    case 'CHANNEL_WITHOUT_MMS':
      return `Pictures cannot be sent from ${number}: it does not support MMS. Send the text without them.`;
    case 'COUNTRY_WITHOUT_MMS':
      return 'Pictures can be sent only to US and Canadian numbers. Send the text without them.';
  }
}

export const isPictureType = (type: string): type is PictureType => (PICTURE_TYPES as readonly string[]).includes(type);
