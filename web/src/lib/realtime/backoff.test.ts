import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './backoff';

describe('reconnectDelay', () => {
  it('doubles from 1 s to at most 30 s, jittered between half the step and the step', () => {
    const steps = [0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelay(attempt, () => 1));
    expect(steps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(reconnectDelay(0, () => 0)).toBe(500);
    expect(reconnectDelay(5, () => 0)).toBe(15_000);
    expect(reconnectDelay(2, () => 0.5)).toBe(3_000);
  });
});
