/**
 * How Twilio counts a text, from its documentation rather than from the product, so the emulator can
 * disagree with a wrong product limit:
 * - `Body` takes at most 1,600 characters; characters outside GSM-7 such as emoji count as more than
 *   one (error 21617, https://www.twilio.com/docs/api/errors/21617): counted here in UTF-16 units.
 * - A text is GSM-7 when every character is in the GSM 03.38 default alphabet or its extension table
 *   (an extension character is sent as ESC plus one septet, so it takes two); otherwise it is UCS-2.
 * - One segment carries 160 septets (GSM-7) or 70 UTF-16 units (UCS-2); a longer text is split into
 *   segments of 153 or 67, since each carries a concatenation header
 *   (https://www.twilio.com/docs/glossary/what-sms-character-limit). A character is never split across
 *   two segments: neither an ESC pair nor a UTF-16 surrogate pair (an emoji), so such a character at a
 *   boundary moves whole to the next segment, as Twilio's segment calculator counts it.
 */

/** Twilio's limit on a Message's `Body`, in characters. */
export const TWILIO_MAX_BODY_LENGTH = 1_600;

export const GSM7_SINGLE_SEGMENT = 160;
export const GSM7_PER_SEGMENT = 153;
export const UCS2_SINGLE_SEGMENT = 70;
export const UCS2_PER_SEGMENT = 67;

/**
 * The GSM 03.38 default alphabet, row by row in septet order (0x00–0x7F); 0x1B is the escape to the
 * extension table, not a character, so it is left out.
 */
const DEFAULT_ALPHABET = [
  '@£$¥èéùìòÇ\nØø\rÅå',
  'Δ_ΦΓΛΩΠΨΣΘΞÆæßÉ',
  ' !"#¤%&\'()*+,-./',
  '0123456789:;<=>?',
  '¡ABCDEFGHIJKLMNO',
  'PQRSTUVWXYZÄÖÑÜ§',
  '¿abcdefghijklmno',
  'pqrstuvwxyzäöñüà',
].join('');

/** The extension table's characters: form feed, ^ { } \ [ ~ ] | and €. */
const EXTENSION_TABLE = '\f^{}\\[~]|€';

const defaultAlphabet = new Set(DEFAULT_ALPHABET);
const extensionTable = new Set(EXTENSION_TABLE);

export type TwilioEncoding = 'GSM-7' | 'UCS-2';

/** What each character of the text takes: septets in GSM-7, UTF-16 units in UCS-2. */
function characterSizes(body: string): { encoding: TwilioEncoding; sizes: number[] } {
  const characters = [...body];
  if (characters.every((c) => defaultAlphabet.has(c) || extensionTable.has(c)))
    return { encoding: 'GSM-7', sizes: characters.map((c) => (extensionTable.has(c) ? 2 : 1)) };
  return { encoding: 'UCS-2', sizes: characters.map((c) => c.length) };
}

/** The number of segments Twilio bills for a text (its `num_segments`). */
export function segmentCount(body: string): number {
  const { encoding, sizes } = characterSizes(body);
  const single = encoding === 'GSM-7' ? GSM7_SINGLE_SEGMENT : UCS2_SINGLE_SEGMENT;
  const perSegment = encoding === 'GSM-7' ? GSM7_PER_SEGMENT : UCS2_PER_SEGMENT;
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > perSegment) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return segments;
}

export function encodingOf(body: string): TwilioEncoding {
  return characterSizes(body).encoding;
}
