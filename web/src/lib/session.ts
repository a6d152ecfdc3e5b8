import type { Company, Tokens, User } from '@shared/contract/auth';

/** docs/product.md §3: the session lives in browser storage under these four keys. */
export const SESSION_KEYS = ['accessToken', 'refreshToken', 'user', 'company'] as const;
/** Stored things that belong to the signed-in user (the softphone's voice token): they go with the session. */
export const USER_CACHE_PREFIX = 'switchboard.user.';

export interface Session {
  accessToken: string;
  refreshToken: string | null;
  user: User;
  company: Company;
}

/**
 * docs/product.md §4: restored when accessToken, user and company are all stored; any item that cannot be parsed
 * clears all four.
 */
export function readStoredSession(storage: Storage): Session | null {
  const accessToken = storage.getItem('accessToken');
  const rawUser = storage.getItem('user');
  const rawCompany = storage.getItem('company');
  if (!accessToken || !rawUser || !rawCompany) return null;
  try {
    const user = JSON.parse(rawUser) as User;
    const company = JSON.parse(rawCompany) as Company;
    if (!isObject(user) || !isObject(company)) throw new Error('not an object');
    return { accessToken, refreshToken: storage.getItem('refreshToken'), user, company };
  } catch {
    clearStoredSession(storage);
    return null;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function writeStoredSession(storage: Storage, session: Session): void {
  storage.setItem('accessToken', session.accessToken);
  if (session.refreshToken) storage.setItem('refreshToken', session.refreshToken);
  else storage.removeItem('refreshToken');
  storage.setItem('user', JSON.stringify(session.user));
  storage.setItem('company', JSON.stringify(session.company));
}

export function clearStoredSession(storage: Storage): void {
  for (const key of SESSION_KEYS) storage.removeItem(key);
  const cached = Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter((key) =>
    key?.startsWith(USER_CACHE_PREFIX),
  );
  for (const key of cached) if (key) storage.removeItem(key);
}

type Listener = () => void;

/**
 * The in-memory session, kept in step with storage; React reads it through useSyncExternalStore.
 * With `events` (the window), a change another tab makes to the stored session (a refresh, a sign-in,
 * a sign-out) reaches this tab too, so tabs never act on tokens another tab has replaced.
 */
export function createSessionStore(storage: Storage, events?: Pick<Window, 'addEventListener'>) {
  let current = readStoredSession(storage);
  const listeners = new Set<Listener>();
  const emit = () => {
    for (const l of listeners) l();
  };
  const reload = () => {
    current = readStoredSession(storage);
    emit();
    return current;
  };
  events?.addEventListener('storage', (event) => {
    // key null: the other tab cleared the whole storage.
    if (event.storageArea === storage && (event.key === null || (SESSION_KEYS as readonly string[]).includes(event.key)))
      reload();
  });
  return {
    get: () => current,
    /** Reads the stored session again (another tab may have changed it) and returns it. */
    reload,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn(session: { user: User; company: Company; tokens: Tokens }) {
      current = { user: session.user, company: session.company, ...session.tokens };
      writeStoredSession(storage, current);
      emit();
    },
    setTokens(tokens: Tokens) {
      if (!current) return;
      current = { ...current, ...tokens };
      writeStoredSession(storage, current);
      emit();
    },
    setProfile(profile: { user: User; company: Company }) {
      if (!current) return;
      current = { ...current, ...profile };
      writeStoredSession(storage, current);
      emit();
    },
    clear() {
      current = null;
      clearStoredSession(storage);
      emit();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
