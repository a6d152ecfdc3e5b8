import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locks } from '@/lib/api-client';
import { createVoiceTokens, VOICE_TOKEN_KEY } from './voice-tokens';

const NOW = Date.parse('2030-01-01T10:00:00Z');
const seconds = (ms: number) => Math.floor(ms / 1000);
/** A voice token's lifetime (VOICE_TOKEN_TTL_SECONDS). */
const LIFE_MS = 15 * 60 * 1000;

/** A JWT as the server's, only its times matter here (the signature is Twilio's business). */
function jwt(issuedAt: number, lifeMs = LIFE_MS) {
  const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256' })}.${part({ iat: seconds(issuedAt), exp: seconds(issuedAt + lifeMs), n: Math.random() })}.sig`;
}

/** navigator.locks, one holder at a time per name, as browsers do across tabs. */
function memoryLocks(): Locks {
  const queues = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>) {
      const run = (queues.get(name) ?? Promise.resolve()).then(callback, callback);
      queues.set(
        name,
        run.catch(() => {}),
      );
      return run;
    },
  };
}

function setUp(options: { userId?: () => string | undefined; now?: () => number } = {}) {
  let issued = 0;
  const fetchToken = vi.fn(async () => jwt(NOW + issued++));
  const tokens = createVoiceTokens({
    fetchToken,
    storage: window.localStorage,
    userId: options.userId ?? (() => 'u1'),
    locks: memoryLocks(),
    now: options.now ?? (() => NOW),
  });
  return { tokens, fetchToken };
}

afterEach(() => window.localStorage.clear());

describe('voice tokens kept for the signed-in user', () => {
  it('asks the server once for two starts at the same time (React StrictMode, two tabs), then reuses the token', async () => {
    const { tokens, fetchToken } = setUp();
    const [a, b] = await Promise.all([tokens.get(), tokens.get()]);
    expect(a).toBe(b);
    expect(await tokens.get()).toBe(a);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    // Another tab (its own instance over the same storage) reuses it too.
    const other = createVoiceTokens({ fetchToken, storage: window.localStorage, userId: () => 'u1', now: () => NOW });
    expect(await other.get()).toBe(a);
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('asks again once the stored token has less than 10 of its 15 minutes left', async () => {
    let now = NOW;
    const { tokens, fetchToken } = setUp({ now: () => now });
    const first = await tokens.get();
    now = NOW + 5 * 60 * 1000;
    expect(await tokens.get()).toBe(first);
    now += 1000;
    expect(await tokens.get()).not.toBe(first);
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("never gives another user's token, nor the one being replaced", async () => {
    let userId = 'u1';
    const { tokens, fetchToken } = setUp({ userId: () => userId });
    const mine = await tokens.get();
    userId = 'u2';
    const theirs = await tokens.get();
    expect(theirs).not.toBe(mine);
    expect(await tokens.replace(theirs)).not.toBe(theirs);
    expect(fetchToken).toHaveBeenCalledTimes(3);
  });

  it('replaces an expiring token with a newer one another tab already stored', async () => {
    const { tokens, fetchToken } = setUp();
    const newer = jwt(NOW);
    window.localStorage.setItem(VOICE_TOKEN_KEY, JSON.stringify({ userId: 'u1', token: newer }));
    expect(await tokens.replace(jwt(NOW - 59 * 60 * 1000))).toBe(newer);
    expect(fetchToken).not.toHaveBeenCalled();
  });

  it('forgets a token issued before the provider changed, and keeps one issued after', async () => {
    const { tokens, fetchToken } = setUp();
    const before = await tokens.get();
    tokens.forgetIssuedBefore(NOW + 5_000);
    const after = await tokens.get();
    expect(after).not.toBe(before);
    tokens.forgetIssuedBefore(NOW - 5_000);
    expect(await tokens.get()).toBe(after);
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing when the server refuses (no provider, too many tokens)', async () => {
    const { tokens, fetchToken } = setUp();
    const token = await tokens.get();
    fetchToken.mockRejectedValueOnce(new Error('PROVIDER_NOT_FOUND'));
    await expect(tokens.replace(token)).rejects.toThrow('PROVIDER_NOT_FOUND');
    expect(window.localStorage.getItem(VOICE_TOKEN_KEY)).toBeNull();
  });
});
