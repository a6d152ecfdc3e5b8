import { describe, expect, it } from 'vitest';
import { conformanceProblems, isIso8601, isRfc2822, type Schema } from './schema-check';

const key: Schema = { $ref: '#/components/schemas/api.v2010.account.key' };
const valid = {
  sid: `SK${'a'.repeat(32)}`,
  friendly_name: 'voice',
  date_created: 'Sat, 21 Nov 2026 10:00:00 +0000',
  date_updated: 'Sat, 21 Nov 2026 10:00:00 +0000',
};

describe('the OpenAPI conformance checker', () => {
  it('passes an instance as documented, and reports each way one departs from it', () => {
    expect(conformanceProblems(key, valid)).toEqual([]);
    const { friendly_name: _, ...missing } = valid;
    expect(conformanceProblems(key, missing)).toEqual(['friendly_name: documented, but missing']);
    expect(conformanceProblems(key, { ...valid, secret: 'x' })).toEqual(['secret: not documented']);
    expect(conformanceProblems(key, { ...valid, friendly_name: 7 })).toEqual(['friendly_name: integer 7, documented as string']);
    expect(conformanceProblems(key, { ...valid, sid: 'SK1' })).toEqual([
      `sid: "SK1" does not match ^SK[0-9a-fA-F]{32}$`,
      'sid: shorter than 34',
    ]);
    expect(conformanceProblems(key, { ...valid, date_created: '2026-11-21T10:00:00.000Z' })).toEqual([
      'date_created: "2026-11-21T10:00:00.000Z" is not an RFC 2822 date',
    ]);
  });

  it('holds enums and nullability: a referenced enum is not nullable unless it says so', () => {
    const message: Schema = { $ref: '#/components/schemas/api.v2010.account.message' };
    const problems = (value: Record<string, unknown>) =>
      conformanceProblems(message, value).filter((p) => p.startsWith('status'));
    expect(problems({ status: 'delivered' })).toEqual([]);
    expect(problems({ status: 'initiated' })).toEqual([expect.stringMatching(/^status: "initiated" is not one of queued, /)]);
    expect(problems({ status: null })).toEqual(['status: null, but not nullable']);
  });

  it('takes an RFC 2822 date only with its right weekday and a real day', () => {
    expect(isRfc2822('Sat, 21 Nov 2026 10:00:00 +0000')).toBe(true);
    expect(isRfc2822('Fri, 21 Nov 2026 10:00:00 +0000')).toBe(false);
    expect(isRfc2822('Mon, 31 Nov 2026 10:00:00 +0000')).toBe(false);
    expect(isRfc2822('Sat, 21 Nov 2026 10:00:00 GMT')).toBe(false);
  });

  it('takes an ISO 8601 date (v1) only as Twilio writes it, naming a real day', () => {
    expect(isIso8601('2026-11-21T10:00:00Z')).toBe(true);
    expect(isIso8601('2026-11-21T10:00:00.000Z')).toBe(false);
    expect(isIso8601('2026-11-31T10:00:00Z')).toBe(false);
    expect(isIso8601('Sat, 21 Nov 2026 10:00:00 +0000')).toBe(false);
    const service: Schema = { $ref: '#/components/schemas/messaging.v1.service' };
    const dates = (value: Record<string, unknown>) =>
      conformanceProblems(service, value).filter((p) => p.startsWith('date_') || p.startsWith('links'));
    expect(
      dates({ date_created: '2026-11-21T10:00:00Z', date_updated: '2026-11-21T10:00:00Z', links: { a: 'https://x/v1' } }),
    ).toEqual([]);
    expect(dates({ date_created: '2026-11-21', date_updated: null, links: { a: 'v1/Services' } })).toEqual([
      'date_created: "2026-11-21" is not an ISO 8601 date',
      'links.a: "v1/Services" is not a URI',
    ]);
  });
});
