import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * What Twilio derives from an E.164 number: its ISO country (the `FromCountry`/`ToCountry` webhook
 * parameters) and its display form (a Call's `from_formatted`/`to_formatted`, national for US numbers
 * as Twilio's examples show it: "(415) 867-5308"). libphonenumber's metadata, as Twilio's own lookups use.
 */
export function countryOf(e164: string): string {
  return parsePhoneNumberFromString(e164)?.country ?? '';
}

export function formattedNumber(e164: string): string {
  const number = parsePhoneNumberFromString(e164);
  if (!number) return e164;
  return number.country === 'US' ? number.formatNational() : number.formatInternational();
}
