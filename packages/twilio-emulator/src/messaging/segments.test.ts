import { describe, expect, it } from 'vitest';
import { encodingOf, segmentCount } from './segments';

describe("Twilio's segment count", () => {
  it('fits 160 GSM-7 characters in one segment and 153 in each part of a longer text', () => {
    expect(['', 'x'.repeat(160), 'x'.repeat(161), 'x'.repeat(306), 'x'.repeat(307)].map(segmentCount)).toEqual([1, 1, 2, 2, 3]);
    expect(encodingOf('Grüße, Ñoño! @£$¥ ΔΦΓ')).toBe('GSM-7');
  });

  it('fits 70 UCS-2 units in one segment and 67 in each part once any character is outside GSM-7', () => {
    const cyrillic = (n: number) => 'д'.repeat(n);
    expect([70, 71, 134, 135].map((n) => segmentCount(cyrillic(n)))).toEqual([1, 2, 2, 3]);
    // One character outside GSM-7 (a curly quote) turns the whole text into UCS-2.
    expect(encodingOf(`${'x'.repeat(100)}’`)).toBe('UCS-2');
    expect(segmentCount(`${'x'.repeat(100)}’`)).toBe(2);
  });

  it('counts an extension character (€ [ ] { } ~ ^ | \\ form feed) as two septets', () => {
    expect(segmentCount('€'.repeat(80))).toBe(1);
    expect(segmentCount('€'.repeat(81))).toBe(2);
    expect(encodingOf('[{~^|\\}]\f€')).toBe('GSM-7');
  });

  it('never splits an escape pair or an emoji across two segments', () => {
    // 306 septets would fill two parts exactly, but the € at the first boundary moves whole to the second.
    expect(segmentCount(`${'x'.repeat(152)}€${'x'.repeat(152)}`)).toBe(3);
    expect(segmentCount(`${'д'.repeat(66)}😀${'д'.repeat(66)}`)).toBe(3);
    expect(segmentCount('😀'.repeat(35))).toBe(1);
    expect(segmentCount('😀'.repeat(36))).toBe(2);
    expect(segmentCount('😀'.repeat(67))).toBe(3);
  });
});
