import { afterEach, describe, expect, it } from 'vitest';
import { advanceClock, clockOffsetMs, setClockOffset } from './clock';

describe('the shifted clock (bench/cost.ts only)', () => {
  afterEach(() => setClockOffset(0));

  it('moves Date.now, new Date() and Date() ahead together; dates given explicitly stay as given', () => {
    const wall = Date.now();
    advanceClock(60 * 60 * 1000);
    expect(clockOffsetMs()).toBe(60 * 60 * 1000);
    expect(Date.now() - wall).toBeGreaterThanOrEqual(60 * 60 * 1000);
    const made = new Date();
    expect(made.getTime() - wall).toBeGreaterThanOrEqual(60 * 60 * 1000);
    expect(new Date(Date.parse(Date())).getTime() - wall).toBeGreaterThanOrEqual(60 * 60 * 1000 - 1000);
    expect(new Date(5).getTime()).toBe(5);
    expect(new Date() instanceof Date).toBe(true);
    setClockOffset(0);
    expect(Date.now() - wall).toBeLessThan(60 * 1000);
  });
});
