import { type PhoneNumberType, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { COUNTRIES } from '../../shared/constants';

/**
 * Which numbers an agent may call out to (docs/security.md: Toll fraud). Only the voice
 * webhook loads this module: libphonenumber's `max` metadata is the one that knows number types, and
 * twice the size of the `min` set every other bundle carries (infra/bundling.ts gives the outbound
 * webhook `max` alone).
 */

/** Number types whose calls cost the caller dearly or pay the callee: the classic toll-fraud targets. */
const COSTLY_TYPES: Partial<Record<PhoneNumberType, string>> = {
  PREMIUM_RATE: 'Calls to premium-rate numbers are not allowed.',
  SHARED_COST: 'Calls to shared-cost numbers are not allowed.',
  UAN: 'Calls to universal access numbers are not allowed.',
  PERSONAL_NUMBER: 'Calls to personal numbers are not allowed.',
};

const SATELLITE = 'Calls to satellite phones and international networks are not allowed.';
const UNKNOWN = 'The number is not a valid phone number.';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** 'GB' → 'United Kingdom', as the dialer names it; other countries by their English name. */
export function countryName(code: string): string {
  return COUNTRIES.find((c) => c.code === code)?.name ?? regionNames.of(code) ?? code;
}

/**
 * Why a number (E.164) may not be called, or null when it may. A number whose type the metadata
 * cannot tell is refused: it is not a number of any known kind, so nobody can say what it costs.
 * Non-geographic numbers (+870, +881, +882, +883, +800…) belong to no country and are refused as
 * satellite or international networks. Anything else must be in the company's allowed countries.
 */
export function refusedDestination(e164: string, allowedCountries: readonly string[]): string | null {
  const number = parsePhoneNumberFromString(e164);
  if (!number?.isValid()) return UNKNOWN;
  const type = number.getType();
  if (!type) return UNKNOWN;
  const costly = COSTLY_TYPES[type];
  if (costly) return costly;
  if (!number.country) return SATELLITE;
  if (!allowedCountries.includes(number.country))
    return `Calls to ${countryName(number.country)} are not allowed for your company.`;
  return null;
}
