import { describe, expect, it } from 'vitest';
import { COUNTRIES } from '../../shared/constants';
import { countryName, refusedDestination } from './destination-policy';
import { stillLive } from './outbound-limits';

const DIALER = COUNTRIES.map((c) => c.code);

describe('refusedDestination', () => {
  it.each([
    ['+19005550100', /premium-rate/],
    ['+448719123456', /premium-rate/],
    ['+33891234567', /premium-rate/],
    ['+979123456789', /premium-rate/],
    ['+41840123456', /shared-cost/],
    ['+34901123456', /shared-cost/],
    ['+445512345678', /universal access/],
    ['+447012345678', /personal numbers/],
    ['+881612345678', /satellite/],
    ['+870772123456', /satellite/],
    ['+88213400000', /satellite/],
    ['+80012345678', /satellite/],
    // Valid for the `min` metadata, of no known type for `max`: refused, nobody can say what it costs.
    ['+4990012345678', /not a valid phone number/],
    ['+12', /not a valid phone number/],
  ])('refuses %s', (number, reason) => {
    expect(refusedDestination(number, DIALER)).toMatch(reason);
  });

  it.each([['+12025550142'], ['+18005550100'], ['+442079460958'], ['+33170123456'], ['+8613812345678']])(
    'lets %s ring from a company that calls every dialer country',
    (number) => {
      expect(refusedDestination(number, DIALER)).toBeNull();
    },
  );

  it('refuses countries outside the allowed list by name', () => {
    expect(refusedDestination('+74951234567', DIALER)).toBe('Calls to Russia are not allowed for your company.');
    expect(refusedDestination('+442079460958', ['US'])).toBe('Calls to United Kingdom are not allowed for your company.');
    expect(refusedDestination('+12025550142', ['US'])).toBeNull();
    // +1 is shared: Canada is its own country.
    expect(refusedDestination('+14165550123', ['US'])).toMatch(/Canada/);
  });

  it('names countries as the dialer does', () => {
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('CU')).toBe('Cuba');
  });
});

describe('stillLive', () => {
  const startedAt = '2026-11-24T10:00:00.000Z';
  const at = (seconds: number) => new Date(Date.parse(startedAt) + seconds * 1000);
  const claim = { callSid: 'CA1', startedAt };

  it('counts a call being placed or ringing for two minutes, one talking for four hours, an ended one not at all', () => {
    expect(stillLive(claim, undefined, at(30))).toBe(true);
    expect(stillLive(claim, undefined, at(121))).toBe(false);
    expect(stillLive(claim, { callStatus: 'RINGING' }, at(119))).toBe(true);
    expect(stillLive(claim, { callStatus: 'RINGING' }, at(120))).toBe(false);
    expect(stillLive(claim, { callStatus: 'IN_PROGRESS' }, at(3 * 60 * 60))).toBe(true);
    expect(stillLive(claim, { callStatus: 'IN_PROGRESS' }, at(4 * 60 * 60))).toBe(false);
    for (const callStatus of ['COMPLETED', 'FAILED', 'BUSY', 'NO_ANSWER'] as const) {
      expect(stillLive(claim, { callStatus }, at(1))).toBe(false);
    }
  });
});
