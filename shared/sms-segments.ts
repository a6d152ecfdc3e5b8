/**
 * How many SMS segments a text costs, as carriers count them (3GPP TS 23.038): GSM-7 when every
 * character is in the GSM 03.38 alphabet (extension characters take two septets), otherwise UCS-2.
 * One segment holds 160 GSM-7 septets or 70 UCS-2 units; a longer text is split into parts of 153 or
 * 67, since each part carries a header. The server stores it and the composer shows it as you type.
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
  let septets = 0;
  let gsm = true;
  for (const char of text) {
    if (basic.has(char)) septets += 1;
    else if (extension.has(char)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  const units = gsm ? septets : text.length;
  const single = gsm ? 160 : 70;
  const multi = gsm ? 153 : 67;
  const perSegment = units <= single ? single : multi;
  const segments = units === 0 ? 1 : Math.ceil(units / perSegment);
  return { encoding, units, segments, perSegment, remaining: segments * perSegment - units };
}
