import { describe, expect, it } from 'vitest';
import {
  checkPhoneNumber,
  DEFAULT_COUNTRY,
  formatAsTyped,
  formatPhoneNumber,
  parsePhoneNumber,
  toCountryCode,
  toE164,
} from './phone-numbers';

describe('phone numbers', () => {
  it('reads national, international and E.164 notations into one E.164 form', () => {
    for (const typed of ['(415) 555-0101', '415.555.0101', '+1 415 555 0101', '+14155550101', ' 4155550101 ']) {
      expect(parsePhoneNumber(typed, 'US')?.e164, typed).toBe('+14155550101');
    }
    expect(parsePhoneNumber('020 7946 0958', 'GB')).toEqual({
      e164: '+442079460958',
      country: 'GB',
      national: '020 7946 0958',
      international: '+44 20 7946 0958',
      valid: true,
    });
    expect(parsePhoneNumber('not a number')).toBeNull();
  });

  it('says what is wrong: empty, unreadable, or not a number of that country', () => {
    expect(checkPhoneNumber('   ', 'US')).toEqual({ ok: false, problem: 'EMPTY' });
    expect(checkPhoneNumber('hello', 'US')).toEqual({ ok: false, problem: 'UNPARSEABLE' });
    expect(checkPhoneNumber('1', 'US')).toEqual({ ok: false, problem: 'UNPARSEABLE' });
    expect(checkPhoneNumber('+1 415 555 0101 1234 5678 9012', 'US')).toEqual({ ok: false, problem: 'UNPARSEABLE' });
    // Ten digits, but no US area code starts with 1.
    expect(checkPhoneNumber('123 456 7890', 'US')).toEqual({ ok: false, problem: 'INVALID_FOR_COUNTRY' });
    const valid = checkPhoneNumber('07400 123456', 'GB');
    expect(valid.ok && valid.number.e164).toBe('+447400123456');
  });

  it('normalises only valid numbers to E.164', () => {
    expect(toE164('(415) 555-0101')).toBe('+14155550101');
    expect(toE164('0151 1234 5678', 'DE')).toBe('+4915112345678');
    expect(toE164('123 456 7890', 'US')).toBeNull();
    expect(toE164('')).toBeNull();
  });

  it('shows a number nationally in the home country and internationally elsewhere', () => {
    expect(formatPhoneNumber('+14155550101', 'US')).toBe('(415) 555-0101');
    expect(formatPhoneNumber('+14155550101', 'GB')).toBe('+1 415 555 0101');
    expect(formatPhoneNumber('+442079460958', 'GB')).toBe('020 7946 0958');
    expect(formatPhoneNumber('+442079460958')).toBe('+44 20 7946 0958');
    // A Canadian number shares +1 with the US but is not national there.
    expect(formatPhoneNumber('+16135550123', 'US')).toBe('+1 613 555 0123');
    expect(formatPhoneNumber('support@example.com', 'US')).toBe('support@example.com');
  });

  it('formats a number as it is typed, and takes country codes as stored', () => {
    expect(formatAsTyped('4155', 'US')).toBe('(415) 5');
    expect(formatAsTyped('4155550101', 'US')).toBe('(415) 555-0101');
    expect(formatAsTyped('+4420794', 'GB')).toBe('+44 20 794');
    expect(toCountryCode('gb')).toBe('GB');
    expect(toCountryCode('XX')).toBe(DEFAULT_COUNTRY);
    expect(toCountryCode(undefined)).toBe('US');
  });
});
