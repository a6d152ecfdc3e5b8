import { formatPhoneNumber, toCountryCode } from '@shared/phone-numbers';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { companySettingsQuery } from './company-settings';

/** docs/product.md §7: the company's default country, or US while it loads or when it cannot be read. */
export function useCompanyCountry() {
  return toCountryCode(useQuery(companySettingsQuery()).data?.default_country_code.code);
}

/**
 * Formats stored numbers for the company's default country: national there, international elsewhere.
 * Imported only by screens that show numbers, so libphonenumber-js never loads with /login; the shell
 * uses phone-display-lazy.
 */
export function usePhoneFormat(): (value: string) => string {
  const country = useCompanyCountry();
  return useCallback((value: string) => formatPhoneNumber(value, country), [country]);
}
