import type { Locks } from '@/lib/api-client';
import { USER_CACHE_PREFIX } from '@/lib/session';

/** Where the signed-in user's voice token is kept, shared by the tabs; sign-out removes it with the session. */
export const VOICE_TOKEN_KEY = `${USER_CACHE_PREFIX}voiceToken`;
const LOCK = 'switchboard-voice-token';
/**
 * A stored token is reused only with this share of its lifetime left (10 of a voice token's 15
 * minutes): a device started on it runs a good while before the SDK asks for the next one (10 s before
 * the end). A share rather than minutes, so a shorter lifetime (the local stack's, for tests) keeps it.
 */
export const MIN_TOKEN_LIFE_SHARE = 2 / 3;

/** The times of an Access Token (a JWT), in seconds; null when it cannot be read. */
export function tokenTimes(token: string): { issuedAt: number; expiresAt: number } | null {
  try {
    const part = token.split('.')[1] ?? '';
    const claims = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { iat?: unknown; exp?: unknown };
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return null;
    return { issuedAt: claims.iat, expiresAt: claims.exp };
  } catch {
    return null;
  }
}

/** The softphone's tokens: where a device gets the token it registers with. */
export interface VoiceTokenSource {
  /** A stored token with enough time left, else a new one from the server (then stored). */
  get(): Promise<string>;
  /** A token other than `stale` (about to expire, or refused): another tab's newer one, else a new one. */
  replace(stale: string): Promise<string>;
}

/**
 * Voice tokens kept in storage for the signed-in user, so page loads, a second start of the same page
 * and other tabs reuse one token instead of asking the server each time (30 per user in 5 minutes).
 * One tab asks at a time (a Web Lock), and the others then find its token.
 */
export function createVoiceTokens(deps: {
  fetchToken: () => Promise<string>;
  storage: Storage;
  userId: () => string | undefined;
  locks?: Locks;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const withLock = <T>(fn: () => Promise<T>) => (deps.locks ? deps.locks.request(LOCK, fn) : fn());

  function stored(): string | null {
    try {
      const item = JSON.parse(deps.storage.getItem(VOICE_TOKEN_KEY) ?? 'null') as { userId?: unknown; token?: unknown } | null;
      const userId = deps.userId();
      return userId && item?.userId === userId && typeof item.token === 'string' ? item.token : null;
    } catch {
      return null;
    }
  }

  const usable = (token: string | null, stale?: string): token is string => {
    const times = token && token !== stale ? tokenTimes(token) : null;
    if (times === null) return false;
    const life = times.expiresAt - times.issuedAt;
    return times.expiresAt * 1000 - now() >= life * 1000 * MIN_TOKEN_LIFE_SHARE;
  };

  function forget() {
    deps.storage.removeItem(VOICE_TOKEN_KEY);
  }

  async function obtain(stale?: string): Promise<string> {
    const cached = stored();
    if (usable(cached, stale)) return cached;
    return withLock(async () => {
      const again = stored();
      if (usable(again, stale)) return again;
      const userId = deps.userId();
      try {
        const token = await deps.fetchToken();
        if (userId && userId === deps.userId()) deps.storage.setItem(VOICE_TOKEN_KEY, JSON.stringify({ userId, token }));
        return token;
      } catch (error) {
        forget();
        throw error;
      }
    });
  }

  return {
    get: () => obtain(),
    replace: (stale: string) => obtain(stale),
    /** The provider changed at `changedAtMs`: a token issued before then is signed with a key that is gone. */
    forgetIssuedBefore(changedAtMs: number) {
      const times = tokenTimes(stored() ?? '');
      if (times && times.issuedAt * 1000 < changedAtMs) forget();
    },
  };
}

export type VoiceTokens = ReturnType<typeof createVoiceTokens>;
