import { describe, expect, it } from 'vitest';
import { formatDurationSeconds } from './format-duration';

describe('formatDurationSeconds', () => {
  it('writes m:ss, minutes past the hour included, from whole seconds rounded down', () => {
    expect([0, 9, 60, 125, 3_601, 7.9].map(formatDurationSeconds)).toEqual(['0:00', '0:09', '1:00', '2:05', '60:01', '0:07']);
  });

  it('shows a clock a moment behind the call (a negative length) as 0:00', () => {
    expect(formatDurationSeconds(-0.4)).toBe('0:00');
  });
});
