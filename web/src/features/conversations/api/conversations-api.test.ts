import { describe, expect, it } from 'vitest';
import { RECONCILIATION_MS } from '@/lib/realtime/polling';
import { threadRefreshInterval } from './conversations-api';

describe('thread refresh (docs/product.md §4/§9)', () => {
  const now = Date.UTC(2026, 0, 1, 12);

  it('without the socket: every 60 s, and every 2 s for the 30 s after a send', () => {
    expect(threadRefreshInterval(null, 'disconnected', now)).toBe(60_000);
    expect(threadRefreshInterval(now, 'disconnected', now)).toBe(2_000);
    expect(threadRefreshInterval(now - 29_999, 'disconnected', now)).toBe(2_000);
    expect(threadRefreshInterval(now - 30_000, 'disconnected', now)).toBe(60_000);
  });

  it('with the socket connected: only the slow reconciliation read, and no burst after a send', () => {
    expect(threadRefreshInterval(null, 'connected', now)).toBe(RECONCILIATION_MS);
    expect(threadRefreshInterval(now, 'connected', now)).toBe(RECONCILIATION_MS);
    expect(threadRefreshInterval(now - 29_999, 'connected', now)).toBe(RECONCILIATION_MS);
  });
});
