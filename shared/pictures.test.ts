import { describe, expect, it } from 'vitest';
import { pictureBlockByPrefix } from './picture-block';
import { pictureBlock } from './pictures';

const us = '+14155550123';
const canada = '+16045550123';
const jamaica = '+18765550123';
const uk = '+447700900123';

describe('pictureBlock', () => {
  it.each([
    [{ identifier: us, mms: true }, canada, null],
    [{ identifier: canada, mms: true }, us, null],
    [{ identifier: us, mms: false }, canada, 'CHANNEL_WITHOUT_MMS'],
    [{ identifier: uk, mms: true }, us, 'CHANNEL_WITHOUT_MMS'],
    // +1, and still neither US nor Canada: only the countries tell.
    [{ identifier: jamaica, mms: true }, us, 'CHANNEL_WITHOUT_MMS'],
    [{ identifier: us, mms: true }, jamaica, 'COUNTRY_WITHOUT_MMS'],
    [{ identifier: us, mms: true }, uk, 'COUNTRY_WITHOUT_MMS'],
  ] as const)('from %o to %s: %s', (from, to, block) => {
    expect(pictureBlock(from, to)).toBe(block);
  });

  it('is never contradicted by the check without metadata', () => {
    for (const identifier of [us, canada, jamaica, uk])
      for (const mms of [true, false])
        for (const to of [us, canada, jamaica, uk]) {
          const byPrefix = pictureBlockByPrefix({ identifier, mms }, to);
          if (byPrefix) expect(pictureBlock({ identifier, mms }, to)).toBe(byPrefix);
          else expect([identifier, to].every((n) => n.startsWith('+1'))).toBe(true);
        }
  });
});
