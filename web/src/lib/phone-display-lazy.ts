import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { companySettingsQuery } from './company-settings';

/**
 * usePhoneFormat for the shell: the same text, but libphonenumber-js and its metadata are
 * fetched on the first number to show rather than with every first visit. The pages that list numbers
 * share that chunk, so it is fetched once. Should the chunk fail to load (a deploy replaced it), the
 * number is shown as stored rather than the notice lost.
 */
export function useLazyPhoneFormat(): (value: string) => Promise<string> {
  const code = useQuery(companySettingsQuery()).data?.default_country_code.code;
  return useCallback(
    (value: string) =>
      import('@shared/phone-numbers').then(
        ({ formatPhoneNumber, toCountryCode }) => formatPhoneNumber(value, toCountryCode(code)),
        () => value,
      ),
    [code],
  );
}
