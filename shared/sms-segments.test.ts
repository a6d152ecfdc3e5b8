import { describe, expect, it } from 'vitest';
import { smsSegments } from './sms-segments';

describe('smsSegments', () => {
  it('fits 160 GSM-7 characters in one segment and splits longer texts into parts of 153', () => {
    expect(smsSegments('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1, remaining: 0 });
    expect(smsSegments('a'.repeat(161))).toMatchObject({ segments: 2, perSegment: 153, remaining: 145 });
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts extension characters such as € and { as two septets', () => {
    expect(smsSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments(`${'€'.repeat(80)}a`).segments).toBe(2);
  });

  it('falls back to UCS-2 for any other character: 70 per segment, then 67', () => {
    expect(smsSegments(`${'a'.repeat(69)}ł`)).toMatchObject({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments(`${'a'.repeat(70)}ł`)).toMatchObject({ segments: 2, perSegment: 67 });
    // An emoji is two UTF-16 units, as carriers count it.
    expect(smsSegments('👋').units).toBe(2);
  });

  it('never splits a character between parts, as Twilio counts: one that does not fit starts the next part', () => {
    // The Twilio emulator (packages/twilio-emulator, written from Twilio's documentation) found these.
    expect(smsSegments(`${'x'.repeat(152)}€${'x'.repeat(152)}`)).toMatchObject({ encoding: 'GSM-7', units: 306, segments: 3 });
    expect(smsSegments(`${'д'.repeat(66)}😀${'д'.repeat(66)}`)).toMatchObject({ encoding: 'UCS-2', units: 134, segments: 3 });
    expect(smsSegments('😀'.repeat(800)).segments).toBe(25);
    // What is left is counted in the last part.
    expect(smsSegments(`${'x'.repeat(152)}€${'x'.repeat(10)}`)).toMatchObject({ segments: 2, remaining: 141 });
  });

  it('counts an empty text as one segment with nothing used', () => {
    expect(smsSegments('')).toMatchObject({ units: 0, segments: 1, remaining: 160 });
  });
});
