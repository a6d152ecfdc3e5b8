import * as voice from '@shared/contract/endpoints/voice';
import { queryOptions } from '@tanstack/react-query';
import { api } from './services';

/**
 * The company's settings (docs/product.md §7): read once per session, they change only with the first imported number.
 * Apart from phone-display so the shell can read the country without libphonenumber-js.
 */
export const companySettingsQuery = () =>
  queryOptions({
    queryKey: ['company', 'settings'] as const,
    queryFn: () => api.call(voice.companySettings).then((d) => d.settings),
    staleTime: Number.POSITIVE_INFINITY,
  });
