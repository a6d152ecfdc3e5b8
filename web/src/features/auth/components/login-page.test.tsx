import * as auth from '@shared/contract/endpoints/auth';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, onSignedOut, session } from '@/lib/services';
import { endpoints, sampleCompany, sampleUser, urlOf } from '@/test-utils';
import { LoginPage } from './login-page';

const user = sampleUser;
const company = sampleCompany;

interface Recorded {
  url: string;
  method: string;
  body: unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Stubs the global fetch the app's API client uses; records every request. */
function stubServer(handler: (request: Recorded) => Response | Promise<Response>) {
  const requests: Recorded[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = {
      url: String(input),
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetch);
  return requests;
}

function ResendPage() {
  const state = useLocation().state as { email?: string } | null;
  return <p>Resend page for {state?.email ?? 'nobody'}</p>;
}

function ForgotPage() {
  const state = useLocation().state as { email?: string } | null;
  return <p>Forgot page for {state?.email ?? 'nobody'}</p>;
}

function renderLogin() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/dashboard" element={<p>Dashboard page</p>} />
          <Route path="/resend-verification" element={<ResendPage />} />
          <Route path="/forgot-password" element={<ForgotPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return {
    email: screen.getByLabelText('Email') as HTMLInputElement,
    password: screen.getByLabelText('Password') as HTMLInputElement,
  };
}

/** The error text tied to an input through aria-describedby, i.e. shown next to the field. */
function fieldError(input: HTMLElement): string | null {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ') || null;
}

beforeEach(() => {
  session.clear();
});

afterEach(() => {
  session.clear();
});

describe('LoginPage', () => {
  it('submitting empty shows both required errors next to their fields, focuses Email and sends nothing', async () => {
    const requests = stubServer(() => json(500, {}));
    const events = userEvent.setup();
    const { email, password } = renderLogin();

    await events.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(fieldError(email)).toBe('Email is required');
    expect(fieldError(password)).toBe('Password is required');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    expect(requests).toEqual([]);
  });

  it('with only the email filled in, focuses Password; a blank-only email counts as empty', async () => {
    const requests = stubServer(() => json(500, {}));
    const events = userEvent.setup();
    const { email, password } = renderLogin();

    await events.type(email, 'ada@example.com');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(fieldError(email)).toBeNull();
    expect(fieldError(password)).toBe('Password is required');
    expect(document.activeElement).toBe(password);

    await events.clear(email);
    await events.type(email, '   ');
    await events.type(password, 'secret-password');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(fieldError(email)).toBe('Email is required');
    expect(fieldError(password)).toBeNull();
    expect(document.activeElement).toBe(email);
    expect(requests).toEqual([]);
  });

  it('an unverified account shows the Email not verified box with a resend link', async () => {
    const message = 'Please verify your email before signing in. Check your inbox for the verification link.';
    stubServer(() => json(403, { success: false, error: { code: 'EMAIL_NOT_VERIFIED', message } }));
    const events = userEvent.setup();
    const { email, password } = renderLogin();

    await events.type(email, ' ada@example.com ');
    await events.type(password, 'secret-password');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));

    const box = await screen.findByRole('status');
    expect(box.textContent).toContain('Email not verified');
    expect(box.textContent).toContain(message);
    expect(screen.queryByRole('alert')).toBeNull();
    const link = screen.getByRole('link', { name: 'Resend verification email' });
    expect(box.contains(link)).toBe(true);
    expect(link.getAttribute('href')).toBe('/resend-verification');

    // The link carries the e-mail to the resend page.
    await events.click(link);
    expect(await screen.findByText('Resend page for ada@example.com')).toBeTruthy();
  });

  it('while the request is pending the button is disabled and reads Signing in...; success signs in and goes to /dashboard', async () => {
    let answer: (response: Response) => void = () => {};
    const requests = stubServer(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const events = userEvent.setup();
    const { email, password } = renderLogin();

    await events.type(email, '  ada@example.com  ');
    await events.type(password, 'secret-password');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));

    const button = await screen.findByRole('button', { name: 'Signing in...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(requests).toEqual([
      { url: urlOf(endpoints.login), method: 'POST', body: { email: 'ada@example.com', password: 'secret-password' } },
    ]);

    answer(json(200, { success: true, data: { user, company, tokens: { accessToken: 'a1', refreshToken: 'r1' } } }));

    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(session.get()).toEqual({ accessToken: 'a1', refreshToken: 'r1', user, company });
    expect(window.localStorage.getItem('accessToken')).toBe('a1');
  });

  it('a 401 shows Invalid email or password and does not try a token refresh', async () => {
    // A stale session with a refresh token is present, so a wrongly triggered refresh would be possible.
    session.signIn({ user, company, tokens: { accessToken: 'stale', refreshToken: 'stale-refresh' } });
    const requests = stubServer((request) =>
      request.url === urlOf(endpoints.refresh)
        ? json(200, { success: true, data: { tokens: { accessToken: 'a2', refreshToken: 'r2' } } })
        : json(401, { success: false, error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } }),
    );
    const events = userEvent.setup();
    const { email, password } = renderLogin();

    await events.type(email, 'ada@example.com');
    await events.type(password, 'wrong-password');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Invalid email or password');
    expect(screen.queryByText('Email not verified')).toBeNull();
    expect(requests.map((r) => r.url)).toEqual([urlOf(endpoints.login)]);
    expect(session.get()?.accessToken).toBe('stale');
    expect(window.localStorage.getItem('refreshToken')).toBe('stale-refresh');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('Dashboard page')).toBeNull();
  });

  it('starts with the cursor in Email', () => {
    stubServer(() => json(500, {}));
    const { email } = renderLogin();
    expect(document.activeElement).toBe(email);
  });

  it("a network failure says so in words, not the browser's Failed to fetch", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const events = userEvent.setup();
    const { email, password } = renderLogin();
    await events.type(email, 'ada@example.com');
    await events.type(password, 'secret-password');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Cannot reach Switchboard. Check your connection.');
  });

  it('after a forced sign-out it says the session has ended, once', async () => {
    // What the app does when a refresh fails: the session is cleared and /login shown.
    // The router's handler goes to /login; here the page is rendered below instead of navigating.
    onSignedOut(() => {});
    session.signIn({ user, company, tokens: { accessToken: 'expired', refreshToken: 'spent' } });
    stubServer(() => json(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'Authentication required' } }));
    await api.call(auth.me).catch(() => {});
    expect(session.get()).toBeNull();

    renderLogin();
    expect(screen.getByRole('status').textContent).toBe('Your session has ended. Please sign in again.');
    cleanup();
    renderLogin();
    expect(screen.queryByText('Your session has ended. Please sign in again.')).toBeNull();
  });

  it('after a removal it says so instead of "session ended": the tab learns it from the refused refresh', async () => {
    const sentence = 'You no longer have access to Acme Support. Ask an owner or admin to invite you again.';
    onSignedOut(() => {});
    session.signIn({ user, company, tokens: { accessToken: 'revoked', refreshToken: 'revoked' } });
    stubServer((request) =>
      request.url === auth.refresh.path
        ? json(401, { success: false, error: { code: 'ACCESS_REMOVED', message: sentence } })
        : json(401, {
            success: false,
            error: { code: 'SESSION_ENDED', message: 'Your session has ended. Please sign in again.' },
          }),
    );
    await api.call(auth.me).catch(() => {});

    renderLogin();
    expect(screen.getByText(sentence)).toBeTruthy();
    expect(screen.queryByText('Your session has ended. Please sign in again.')).toBeNull();
  });

  it("a removed member's other tab, signed out through the shared storage, says the same", async () => {
    const sentence = 'You no longer have access to Acme Support. Ask an owner or admin to invite you again.';
    onSignedOut(() => {});
    session.signIn({ user, company, tokens: { accessToken: 'revoked', refreshToken: 'revoked' } });
    stubServer(() => json(401, { success: false, error: { code: 'ACCESS_REMOVED', message: sentence } }));
    await api.call(auth.me).catch(() => {});
    // Another tab: its own sessionStorage knows nothing; it lost the session through localStorage.
    window.sessionStorage.clear();

    renderLogin();
    expect(screen.getByText(sentence)).toBeTruthy();
    cleanup();
    // Signing in again in this browser ends the notice everywhere.
    session.signIn({ user, company, tokens: { accessToken: 'new', refreshToken: 'new' } });
    session.clear();
    renderLogin();
    expect(screen.queryByText(sentence)).toBeNull();
  });

  it('a removed member signing in with their password is told where they no longer have access', async () => {
    const sentence = 'You no longer have access to Acme Support. Ask an owner or admin to invite you again.';
    const requests = stubServer(() => json(401, { success: false, error: { code: 'ACCESS_REMOVED', message: sentence } }));
    const { email, password } = renderLogin();
    const events = userEvent.setup();
    await events.type(email, 'grace@example.com');
    await events.type(password, 'her old password');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
    expect(requests.map((r) => r.url)).toEqual([urlOf(auth.login)]);
  });

  it('"Forgot password?" opens the reset request with the email typed so far', async () => {
    stubServer(() => json(500, {}));
    const { email } = renderLogin();
    const events = userEvent.setup();
    await events.type(email, 'ada@example.com');
    await events.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(screen.getByText('Forgot page for ada@example.com')).toBeTruthy();
  });

  it('a deliberate visit to /login has no session notice', () => {
    stubServer(() => json(500, {}));
    renderLogin();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
