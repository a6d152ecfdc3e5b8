import { type CountryCode, parsePhoneNumber } from '../../shared/phone-numbers';

/**
 * libphonenumber, loaded by dynamic import only where a number must be read: its metadata is most
 * of a voice handler's bundle and of its cold start. A module of its own, so the bundle keeps only
 * the parsing part of shared/phone-numbers.
 */

/** The country a number belongs to ('US'), when the metadata can tell. */
export const countryOf = (e164: string): string | undefined => parsePhoneNumber(e164)?.country;

/** What a caller dialled as E.164, read for the company's country; undefined unless it is a valid number. */
export function dialledNumber(input: string, country: string): string | undefined {
  const number = parsePhoneNumber(input, country as CountryCode);
  return number?.valid ? number.e164 : undefined;
}
