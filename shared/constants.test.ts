import { describe, expect, it } from 'vitest';
import { COUNTRIES, DEFAULT_COUNTRY_CODE } from './constants';

describe('the dialer countries', () => {
  it('are 50, unique, beginning US, CA, GB, AU, NZ, IN, MX, BR', () => {
    expect(COUNTRIES).toHaveLength(50);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(50);
    expect(COUNTRIES.slice(0, 8).map((c) => c.code)).toEqual(['US', 'CA', 'GB', 'AU', 'NZ', 'IN', 'MX', 'BR']);
    expect(COUNTRIES[0]).toEqual({ code: 'US', dialCode: '+1', name: 'United States' });
    expect(COUNTRIES.some((c) => c.code === DEFAULT_COUNTRY_CODE)).toBe(true);
    for (const c of COUNTRIES) expect(c.dialCode).toMatch(/^\+\d{1,3}$/);
  });
});
