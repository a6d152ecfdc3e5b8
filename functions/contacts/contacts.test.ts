import { describe, expect, it } from 'vitest';
import { toE164 } from './contacts';

describe('toE164', () => {
  it('keeps what Twilio sends, reads any other notation, and refuses what is not a number', async () => {
    expect(await toE164('+14155550101')).toBe('+14155550101');
    expect(await toE164(' +1 (202) 555-0143 ')).toBe('+12025550143');
    expect(await toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(await toE164('not a phone')).toBeUndefined();
    expect(await toE164('')).toBeUndefined();
  });
});
