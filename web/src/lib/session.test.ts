import { describe, expect, it, vi } from 'vitest';
import { sampleCompany, sampleUser } from '../test-utils';
import {
  clearStoredSession,
  createSessionStore,
  readStoredSession,
  SESSION_KEYS,
  USER_CACHE_PREFIX,
  writeStoredSession,
} from './session';

const user = sampleUser;
const company = sampleCompany;

function store(items: Partial<Record<(typeof SESSION_KEYS)[number], string>>) {
  for (const [key, value] of Object.entries(items)) window.localStorage.setItem(key, value);
}

function storedKeys() {
  return SESSION_KEYS.filter((key) => window.localStorage.getItem(key) !== null);
}

const complete = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  user: JSON.stringify(user),
  company: JSON.stringify(company),
};

describe('readStoredSession (docs/product.md §4 restore)', () => {
  it('restores the session when accessToken, user and company are stored', () => {
    store(complete);
    expect(readStoredSession(window.localStorage)).toEqual({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      user,
      company,
    });
  });

  it('restores without a refresh token, which is optional', () => {
    const { refreshToken: _omitted, ...withoutRefresh } = complete;
    store(withoutRefresh);
    expect(readStoredSession(window.localStorage)).toEqual({ accessToken: 'access-1', refreshToken: null, user, company });
  });

  it.each(['accessToken', 'user', 'company'] as const)(
    'is not restored when %s is missing, and leaves storage alone',
    (missing) => {
      store(Object.fromEntries(Object.entries(complete).filter(([key]) => key !== missing)));
      expect(readStoredSession(window.localStorage)).toBeNull();
      expect(storedKeys()).toEqual(SESSION_KEYS.filter((key) => key !== missing));
    },
  );

  it('is not restored from an empty storage', () => {
    expect(readStoredSession(window.localStorage)).toBeNull();
  });

  it.each([
    ['user is not JSON', { user: '{not json' }],
    ['company is not JSON', { company: 'undefined' }],
    ['user is a JSON string', { user: '"Ada"' }],
    ['company is a JSON number', { company: '42' }],
    ['user is JSON null', { user: 'null' }],
    ['company is a JSON array', { company: '[1,2]' }],
  ])('clears all four keys when %s', (_case, broken) => {
    store({ ...complete, ...broken });
    window.localStorage.setItem('theme', 'dark');
    expect(readStoredSession(window.localStorage)).toBeNull();
    expect(storedKeys()).toEqual([]);
    // Only the session's own keys go.
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });

  it('write then read round-trips, and a null refresh token removes the stored one', () => {
    store({ refreshToken: 'stale' });
    writeStoredSession(window.localStorage, { accessToken: 'a', refreshToken: null, user, company });
    expect(window.localStorage.getItem('refreshToken')).toBeNull();
    expect(readStoredSession(window.localStorage)).toEqual({ accessToken: 'a', refreshToken: null, user, company });
    clearStoredSession(window.localStorage);
    expect(storedKeys()).toEqual([]);
  });
});

describe('createSessionStore', () => {
  it('starts from the stored session', () => {
    store(complete);
    expect(createSessionStore(window.localStorage).get()).toEqual({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      user,
      company,
    });
  });

  it('starts signed out, and clears storage, when the stored session is corrupt', () => {
    store({ ...complete, user: 'oops' });
    expect(createSessionStore(window.localStorage).get()).toBeNull();
    expect(storedKeys()).toEqual([]);
  });

  it('signIn stores all four items, updates memory and notifies subscribers', () => {
    const session = createSessionStore(window.localStorage);
    const listener = vi.fn(() => {
      // Subscribers read the new state in step with storage.
      expect(session.get()?.accessToken).toBe('access-2');
      expect(window.localStorage.getItem('accessToken')).toBe('access-2');
    });
    session.subscribe(listener);
    session.signIn({ user, company, tokens: { accessToken: 'access-2', refreshToken: 'refresh-2' } });

    expect(listener).toHaveBeenCalledTimes(1);
    expect(session.get()).toEqual({ accessToken: 'access-2', refreshToken: 'refresh-2', user, company });
    expect(window.localStorage.getItem('refreshToken')).toBe('refresh-2');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(user);
    expect(JSON.parse(window.localStorage.getItem('company') ?? 'null')).toEqual(company);
    // A fresh store over the same storage sees the same session.
    expect(createSessionStore(window.localStorage).get()).toEqual(session.get());
  });

  it('setTokens replaces both tokens and keeps the profile', () => {
    store(complete);
    const session = createSessionStore(window.localStorage);
    const listener = vi.fn();
    session.subscribe(listener);
    session.setTokens({ accessToken: 'access-3', refreshToken: 'refresh-3' });

    expect(listener).toHaveBeenCalledTimes(1);
    expect(session.get()).toEqual({ accessToken: 'access-3', refreshToken: 'refresh-3', user, company });
    expect(window.localStorage.getItem('accessToken')).toBe('access-3');
    expect(window.localStorage.getItem('refreshToken')).toBe('refresh-3');
  });

  it('setTokens and setProfile do nothing when signed out', () => {
    const session = createSessionStore(window.localStorage);
    const listener = vi.fn();
    session.subscribe(listener);
    session.setTokens({ accessToken: 'a', refreshToken: 'r' });
    session.setProfile({ user, company });
    expect(session.get()).toBeNull();
    expect(storedKeys()).toEqual([]);
    expect(listener).not.toHaveBeenCalled();
  });

  it('setProfile replaces user and company and keeps the tokens', () => {
    store(complete);
    const session = createSessionStore(window.localStorage);
    const listener = vi.fn();
    session.subscribe(listener);
    const renamed = { ...user, name: 'Countess of Lovelace' };
    const otherCompany = { ...company, name: 'Difference Engines' };
    session.setProfile({ user: renamed, company: otherCompany });

    expect(listener).toHaveBeenCalledTimes(1);
    expect(session.get()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1', user: renamed, company: otherCompany });
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(renamed);
    expect(JSON.parse(window.localStorage.getItem('company') ?? 'null')).toEqual(otherCompany);
    expect(window.localStorage.getItem('accessToken')).toBe('access-1');
  });

  it("clear empties memory, all four stored items and the user's cached things (a voice token), and notifies", () => {
    store(complete);
    window.localStorage.setItem('theme', 'light');
    window.localStorage.setItem(`${USER_CACHE_PREFIX}voiceToken`, '{"userId":"u1","token":"t"}');
    const session = createSessionStore(window.localStorage);
    const listener = vi.fn();
    session.subscribe(listener);
    session.clear();

    expect(listener).toHaveBeenCalledTimes(1);
    expect(session.get()).toBeNull();
    expect(storedKeys()).toEqual([]);
    expect(window.localStorage.getItem(`${USER_CACHE_PREFIX}voiceToken`)).toBeNull();
    expect(window.localStorage.getItem('theme')).toBe('light');
  });

  it('stops notifying after unsubscribe', () => {
    const session = createSessionStore(window.localStorage);
    const kept = vi.fn();
    const dropped = vi.fn();
    session.subscribe(kept);
    const unsubscribe = session.subscribe(dropped);
    unsubscribe();
    session.signIn({ user, company, tokens: { accessToken: 'a', refreshToken: 'r' } });
    session.clear();
    expect(kept).toHaveBeenCalledTimes(2);
    expect(dropped).not.toHaveBeenCalled();
  });
});

describe('createSessionStore across tabs', () => {
  const fromOtherTab = (events: EventTarget, key: string | null) =>
    events.dispatchEvent(new StorageEvent('storage', { key, storageArea: window.localStorage }));

  it('follows a sign-in, a token refresh and a sign-out made in another tab', () => {
    const events = new EventTarget();
    const tab = createSessionStore(window.localStorage, events as unknown as Window);
    const listener = vi.fn();
    tab.subscribe(listener);

    store(complete);
    fromOtherTab(events, 'company');
    expect(tab.get()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1', user, company });

    window.localStorage.setItem('accessToken', 'access-2');
    window.localStorage.setItem('refreshToken', 'refresh-2');
    fromOtherTab(events, 'refreshToken');
    expect(tab.get()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });

    window.localStorage.setItem('theme', 'dark');
    fromOtherTab(events, 'theme');
    expect(listener).toHaveBeenCalledTimes(2);

    clearStoredSession(window.localStorage);
    fromOtherTab(events, null);
    expect(tab.get()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
