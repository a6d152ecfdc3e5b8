/**
 * Phone numbers, once for the handlers and the web app (docs/architecture.md §3): parse what a person typed, validate
 * it for a country, normalise it to E.164 (storage and the API), and format it for display: national
 * for the company's own country, international for any other. libphonenumber-js with its `min`
 * metadata: enough to validate and format every country (the larger sets only add number types).
 */
import {
  AsYouType,
  type CountryCode,
  isSupportedCountry,
  type PhoneNumber,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js/min';
import { COUNTRIES, DEFAULT_COUNTRY_CODE } from './constants';

export type { CountryCode };

/** docs/product.md §9: the default dialing country. */
export const DEFAULT_COUNTRY = DEFAULT_COUNTRY_CODE as CountryCode;

/** A country code as stored or sent ('us', 'GB'), or the default country when it is unknown. */
export function toCountryCode(code: string | null | undefined): CountryCode {
  const upper = code?.trim().toUpperCase() ?? '';
  return isSupportedCountry(upper) ? upper : DEFAULT_COUNTRY;
}

export interface ParsedPhoneNumber {
  /** '+14155550101' */
  e164: string;
  /** The country the number belongs to, when the metadata can tell ('US'); undefined for non-geographic numbers. */
  country: CountryCode | undefined;
  /** '(415) 555-0101' */
  national: string;
  /** '+1 415 555 0101' */
  international: string;
  /** Whether the number is a real number of its country (its length and prefixes), not merely digits. */
  valid: boolean;
}

function describe(number: PhoneNumber): ParsedPhoneNumber {
  return {
    e164: number.number,
    country: number.country,
    national: number.formatNational(),
    international: number.formatInternational(),
    valid: number.isValid(),
  };
}

/**
 * Reads a number in any common notation: E.164, international ('+44 20 7946 0958', '0044…' is not
 * international), or national for `defaultCountry` ('(415) 555-0101'). Null when it is not a phone
 * number at all.
 */
export function parsePhoneNumber(input: string, defaultCountry: CountryCode = DEFAULT_COUNTRY): ParsedPhoneNumber | null {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry);
  return parsed ? describe(parsed) : null;
}

export type PhoneNumberProblem = 'EMPTY' | 'INVALID_FOR_COUNTRY' | 'UNPARSEABLE';

export type PhoneNumberCheck = { ok: true; number: ParsedPhoneNumber } | { ok: false; problem: PhoneNumberProblem };

/**
 * Validates what a person typed for a country (docs/product.md §5, the dialer): EMPTY when nothing was typed,
 * UNPARSEABLE when it cannot be read as a number (letters, too short or too long: docs/product.md §9 allows 2 to 17
 * national digits), INVALID_FOR_COUNTRY when it reads as a number that does not exist there.
 */
export function checkPhoneNumber(input: string, country: CountryCode = DEFAULT_COUNTRY): PhoneNumberCheck {
  const text = input.trim();
  if (!text) return { ok: false, problem: 'EMPTY' };
  const length = validatePhoneNumberLength(text, country);
  if (length === 'NOT_A_NUMBER' || length === 'TOO_SHORT' || length === 'TOO_LONG' || length === 'INVALID_COUNTRY') {
    return { ok: false, problem: 'UNPARSEABLE' };
  }
  const number = parsePhoneNumber(text, country);
  if (!number) return { ok: false, problem: 'UNPARSEABLE' };
  if (!number.valid) return { ok: false, problem: 'INVALID_FOR_COUNTRY' };
  return { ok: true, number };
}

/**
 * What is wrong with a typed number, as the dialer and New message say it (docs/product.md §5), or null
 * when it is a valid number of `country` (or another country's, typed with its +code).
 */
export function phoneNumberProblem(input: string, country: CountryCode = DEFAULT_COUNTRY): string | null {
  const check = checkPhoneNumber(input, country);
  if (check.ok) return null;
  if (check.problem === 'EMPTY') return 'Please enter a phone number';
  if (check.problem === 'INVALID_FOR_COUNTRY') {
    return `Invalid phone number for ${COUNTRIES.find((c) => c.code === country)?.name ?? country}`;
  }
  return 'Please enter a valid phone number';
}

/** The E.164 form of a valid number ('+14155550101'), or null. */
export function toE164(input: string, country: CountryCode = DEFAULT_COUNTRY): string | null {
  const check = checkPhoneNumber(input, country);
  return check.ok ? check.number.e164 : null;
}

/**
 * A stored number (E.164) as people read it: national notation when it belongs to `homeCountry` (the
 * company's default country), international otherwise. Anything unreadable is shown as it is.
 */
export function formatPhoneNumber(value: string, homeCountry: CountryCode = DEFAULT_COUNTRY): string {
  const number = parsePhoneNumber(value, homeCountry);
  if (!number) return value;
  return number.country === homeCountry ? number.national : number.international;
}

/** A number being typed, formatted so far for the chosen country ('4155' → '(415) 5'). */
export function formatAsTyped(input: string, country: CountryCode = DEFAULT_COUNTRY): string {
  return new AsYouType(country).input(input);
}
