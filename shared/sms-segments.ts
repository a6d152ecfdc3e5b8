/**
 * How many SMS segments a text costs, as carriers count them (3GPP TS 23.038): GSM-7 when every
 * character is in the GSM 03.38 alphabet (extension characters take two septets), otherwise UCS-2.
 * One segment holds 160 GSM-7 septets or 70 UCS-2 units; a longer text is split into parts of 153 or
 * 67, since each part carries a header, and no character is split between parts. The server stores
 * it and the composer shows it as you type.
 */

export const MAX_MESSAGE_LENGTH = 1_600;

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

const basic = new Set(GSM7_BASIC);
const extension = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  segments: number;
  /** What one segment holds at this length: 160/153 (GSM-7) or 70/67 (UCS-2). */
  perSegment: number;
  /** Units left before the text needs another segment. */
  remaining: number;
}

export function smsSegments(text: string): SmsSegments {
  // Each character's size: septets (GSM-7, 2 for an extension character) or UTF-16 units (UCS-2).
  const gsm = [...text].every((char) => basic.has(char) || extension.has(char));
  const sizes = [...text].map((char) => (gsm ? (extension.has(char) ? 2 : 1) : char.length));
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  const units = sizes.reduce((sum, size) => sum + size, 0);
  const single = gsm ? 160 : 70;
  const multi = gsm ? 153 : 67;
  if (units <= single) return { encoding, units, segments: 1, perSegment: single, remaining: single - units };
  // A character is never split between parts: one that does not fit moves whole to the next part
  // (an extension character's escape and its septet, a surrogate pair), so a part may end short.
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > multi) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return { encoding, units, segments, perSegment: multi, remaining: multi - used };
}
