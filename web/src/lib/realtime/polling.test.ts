import { describe, expect, it } from 'vitest';
import { pollingInterval, RECONCILIATION_MS } from './polling';

describe('polling while the socket is down, not while it is up', () => {
  it('polls at the screen’s own interval while the socket is disconnected', () => {
    expect(pollingInterval('disconnected', 60_000)).toBe(60_000);
    expect(pollingInterval('disconnected', 2_000)).toBe(2_000);
  });

  it('reads only every few minutes while it is connected, never more often than the screen would poll', () => {
    expect(RECONCILIATION_MS).toBeGreaterThanOrEqual(5 * 60_000);
    expect(pollingInterval('connected', 60_000)).toBe(RECONCILIATION_MS);
    expect(pollingInterval('connected', 2_000)).toBe(RECONCILIATION_MS);
    expect(pollingInterval('connected', 60 * 60_000)).toBe(60 * 60_000);
  });

  it('leaves a query that does not poll alone', () => {
    expect(pollingInterval('connected', false)).toBe(false);
    expect(pollingInterval('disconnected', false)).toBe(false);
  });
});
