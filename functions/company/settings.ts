import { DEFAULT_COUNTRY_CODE } from '../../shared/constants';
import type { CompanySettings } from '../../shared/contract/voice';
import { listChannelRecords } from '../settings/channels';
import { callingSettings } from './calling-settings';

/**
 * The company's default dialing country: that of its first imported phone number (docs/product.md §3 Company
 * settings), else US. Inactive channels count: the company's country does not change when a
 * provider is disconnected.
 */
export async function defaultCountry(companyId: string): Promise<string> {
  const phones = (await listChannelRecords(companyId)).filter((c) => c.type === 'PHONE');
  const first = phones.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.identifier.localeCompare(b.identifier))[0];
  if (!first) return DEFAULT_COUNTRY_CODE;
  const { countryOf } = await import('../voice/phone-country');
  return countryOf(first.identifier) ?? DEFAULT_COUNTRY_CODE;
}

export async function companySettings(companyId: string): Promise<CompanySettings> {
  const [code, calling] = await Promise.all([defaultCountry(companyId), callingSettings(companyId)]);
  return { default_country_code: { code }, calling };
}
