import { type CountryCode, DEFAULT_COUNTRY } from '../../shared/phone-numbers';

/**
 * The country a number typed without its country code belongs to: the company's default country
 * (SPEC §3 company settings). No route stores that setting yet (GET /company/settings comes with
 * calling), so every company has SPEC §8's fallback, US; this is the one place to read it from later.
 */
export async function companyCountry(_companyId: string): Promise<CountryCode> {
  return DEFAULT_COUNTRY;
}
