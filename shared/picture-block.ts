/**
 * Where a text may carry pictures, as far as it can be told without phone-number metadata
 * (docs/product.md: Pictures out): MMS goes between US and Canadian numbers only, and those are all
 * +1. `pictureBlock` (./pictures) finishes the rule with the countries; a handler that must stay off
 * the metadata's cold start asks this first.
 */
export const PICTURE_BLOCKS = ['CHANNEL_WITHOUT_MMS', 'COUNTRY_WITHOUT_MMS'] as const;
export type PictureBlock = (typeof PICTURE_BLOCKS)[number];

export interface PictureSender {
  identifier: string;
  mms: boolean;
}

/** Why pictures cannot go from this sending number to `to` (E.164); undefined when the countries decide. */
export function pictureBlockByPrefix(from: PictureSender, to: string): PictureBlock | undefined {
  if (!from.mms || !from.identifier.startsWith('+1')) return 'CHANNEL_WITHOUT_MMS';
  if (!to.startsWith('+1')) return 'COUNTRY_WITHOUT_MMS';
  return undefined;
}
