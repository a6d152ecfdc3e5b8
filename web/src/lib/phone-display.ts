import { useCallback } from 'react';
import { DEFAULT_COUNTRY, formatPhoneNumber } from '../../../shared/phone-numbers';

/**
 * Formats stored numbers for the company's default country: national there, international elsewhere.
 * That country is SPEC §3's company setting; its route (GET /company/settings) is not built yet, so
 * SPEC §8's fallback, US, holds, and a hook already, so screens need no change when it is read.
 * Imported only by screens that show numbers, so libphonenumber-js never loads with /login.
 */
export function usePhoneFormat(): (value: string) => string {
  return useCallback((value: string) => formatPhoneNumber(value, DEFAULT_COUNTRY), []);
}
