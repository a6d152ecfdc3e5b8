import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callLine, endpoints, fail, ok, type Recorded, sampleCompany, sampleUser, stubServer, urlOf } from '../test-utils';

/**
 * The whole app (router, session store, API client, query cache) as it starts in a tab, for what a
 * stored session does at start (docs/product.md §4, §8). The socket and the phone are left out: the
 * session is the subject here.
 */
vi.mock('../lib/realtime/realtime', () => ({
  useRealtimeConnection: () => {},
  useRealtimeState: () => 'connected',
  useRealtimeEvent: () => {},
}));
vi.mock('../features/softphone/components/softphone-widget', () => ({ SoftphoneWidget: () => null }));
// jsdom has no matchMedia; the theme toggle asks it for the system's preference.
vi.hoisted(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query }) as MediaQueryList) as typeof window.matchMedia;
});

const SESSION_KEYS = ['accessToken', 'refreshToken', 'user', 'company'] as const;
const stored = () => Object.fromEntries(SESSION_KEYS.map((k) => [k, window.localStorage.getItem(k)]));
const NO_SESSION = { accessToken: null, refreshToken: null, user: null, company: null };

/**
 * Starts the app at `path` with these items in localStorage, as a new tab does: the app's modules are
 * loaded afresh, so the session store reads the storage as it is now.
 */
async function startApp(path: string, items: Partial<Record<(typeof SESSION_KEYS)[number], string>> = {}) {
  for (const [key, value] of Object.entries(items)) window.localStorage.setItem(key, value);
  window.history.replaceState(null, '', path);
  vi.resetModules();
  const { App } = await import('./app');
  render(<App />);
}

const bearer = (init?: RequestInit) => new Headers(init?.headers).get('Authorization');
const sessionCalls = (requests: Recorded[]) =>
  requests.filter((r) => /^\/api\/v1\/(me|auth\/)/.test(r.url)).map((r) => `${r.method} ${r.url}`);
const expired = () => fail(401, 'Your session has expired. Please sign in again.', 'UNAUTHORIZED');

afterEach(() => window.history.replaceState(null, '', '/'));

describe('a stored session at start', () => {
  it('that cannot be parsed is cleared, and the visitor lands on /login', async () => {
    const requests = stubServer(() => fail(500, 'unexpected'));
    await startApp('/dashboard', {
      accessToken: 'a',
      refreshToken: 'r',
      user: '{not json',
      company: JSON.stringify(sampleCompany),
    });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(stored()).toEqual(NO_SESSION);
    expect(sessionCalls(requests)).toEqual([]);
  });

  it('shows Loading... until the signed-in shell is in (a chunk of its own), then the navigation and the page', async () => {
    stubServer((r) =>
      r.url === urlOf(endpoints.me) ? ok({ user: sampleUser, company: sampleCompany }) : fail(404, 'Not found', 'NOT_FOUND'),
    );
    await startApp('/dashboard', {
      accessToken: 'a',
      refreshToken: 'r',
      user: JSON.stringify(sampleUser),
      company: JSON.stringify(sampleCompany),
    });
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeTruthy();
  });

  it('with an expired access token is renewed by the refresh token without the person noticing', async () => {
    const requests = stubServer((r, init) => {
      if (r.url === urlOf(endpoints.refresh)) {
        return (r.body as { refreshToken: string }).refreshToken === 'r1'
          ? ok({ tokens: { accessToken: 'a2', refreshToken: 'r2' } })
          : expired();
      }
      if (bearer(init) !== 'Bearer a2') return expired();
      if (r.url === urlOf(endpoints.me)) return ok({ user: sampleUser, company: sampleCompany });
      return fail(404, 'Not found', 'NOT_FOUND');
    });
    await startApp('/dashboard', {
      accessToken: 'expired',
      refreshToken: 'r1',
      user: JSON.stringify(sampleUser),
      company: JSON.stringify(sampleCompany),
    });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeTruthy();
    await waitFor(() => expect(sessionCalls(requests)).toContain(callLine(endpoints.me)));
    await waitFor(() =>
      expect(sessionCalls(requests)).toEqual([callLine(endpoints.me), callLine(endpoints.refresh), callLine(endpoints.me)]),
    );
    // The refresh token rotates with the access token.
    expect(stored()).toMatchObject({ accessToken: 'a2', refreshToken: 'r2' });
    expect(JSON.parse(stored().user ?? 'null')).toMatchObject({ id: sampleUser.id, name: 'Ada Lovelace' });
    expect(window.location.pathname).toBe('/dashboard');
    expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull();
  });

  it('whose refresh fails is cleared, and /login says the session has ended', async () => {
    const requests = stubServer(() => expired());
    await startApp('/dashboard', {
      accessToken: 'not-a-jwt',
      refreshToken: 'not-a-refresh-token',
      user: JSON.stringify(sampleUser),
      company: JSON.stringify(sampleCompany),
    });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(screen.getByText('Your session has ended. Please sign in again.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Sign in · Switchboard'));
    expect(stored()).toEqual(NO_SESSION);
    expect(sessionCalls(requests).filter((c) => c === callLine(endpoints.refresh))).toHaveLength(1);
  });
});

describe('a signed-in page opened without a session', () => {
  it('sends the visitor to /login, and back to that page after signing in', async () => {
    stubServer((r) => {
      if (r.url === urlOf(endpoints.login)) {
        return ok({ user: sampleUser, company: sampleCompany, tokens: { accessToken: 'a1', refreshToken: 'r1' } });
      }
      if (r.url === urlOf(endpoints.me)) return ok({ user: sampleUser, company: sampleCompany });
      return fail(404, 'Not found', 'NOT_FOUND');
    });
    const events = userEvent.setup();
    await startApp('/settings/company');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    await events.type(screen.getByLabelText('Email'), 'ada@example.com');
    await events.type(screen.getByLabelText('Password'), 'correct horse battery');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('button', { name: 'Save company name' })).toBeTruthy();
    expect(window.location.pathname).toBe('/settings/company');
    expect((screen.getByLabelText('Company name') as HTMLInputElement).value).toBe('Analytical Engines');
  });
});
