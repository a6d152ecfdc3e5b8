import { describe, expect, it } from 'vitest';
import { threadRefreshInterval } from './conversations-api';

describe('thread refresh (docs/product.md §4/§9)', () => {
  it('is every 60 s, and every 2 s for the 30 s after a send', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(threadRefreshInterval(null, now)).toBe(60_000);
    expect(threadRefreshInterval(now, now)).toBe(2_000);
    expect(threadRefreshInterval(now - 29_999, now)).toBe(2_000);
    expect(threadRefreshInterval(now - 30_000, now)).toBe(60_000);
  });
});
