import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import * as voice from '../../../shared/contract/endpoints/voice';
import { DEFAULT_COUNTRY, formatPhoneNumber, toCountryCode } from '../../../shared/phone-numbers';
import { api } from './services';

/** The company's settings (docs/product.md §7): read once per session, they change only with the first imported number. */
export const companySettingsQuery = () =>
  queryOptions({
    queryKey: ['company', 'settings'] as const,
    queryFn: () => api.call(voice.companySettings).then((d) => d.settings),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** docs/product.md §7: the company's default country, or US while it loads or when it cannot be read. */
export function useCompanyCountry() {
  const { data } = useQuery(companySettingsQuery());
  return data ? toCountryCode(data.default_country_code.code) : DEFAULT_COUNTRY;
}

/**
 * Formats stored numbers for the company's default country: national there, international elsewhere.
 * Imported only by screens that show numbers, so libphonenumber-js never loads with /login.
 */
export function usePhoneFormat(): (value: string) => string {
  const country = useCompanyCountry();
  return useCallback((value: string) => formatPhoneNumber(value, country), [country]);
}
