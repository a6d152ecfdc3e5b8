import { decodeJwt, SignJWT } from 'jose';
import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TOKEN_FAILURE_WINDOW_SECONDS } from '../../shared/constants';
import { api, signUp, stack } from '../support/api';
import {
  expireVerificationLink,
  gone,
  isFocused,
  launchBrowser,
  mailedVerificationLink,
  openTab,
  pathOf,
  reached,
  registerUnverified,
  seen,
  signInThroughForm,
  storedSession,
  web,
  writeStorage,
} from '../support/browser';
import { BROWSER_THROTTLE_WINDOW_SCALE } from '../support/test-stack';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const NO_SESSION = { accessToken: null, refreshToken: null, user: null, company: null };
/** The refresh throttle's window on the browser stack (a minute in AWS; the stack's local-only scale). */
const REFRESH_WINDOW_SECONDS = Math.round(SESSION_TOKEN_FAILURE_WINDOW_SECONDS * BROWSER_THROTTLE_WINDOW_SCALE);
/** The 429 storm is used only with this much of its throttle window left, for the page's own refresh to land in it. */
const STORM_TIME_LEFT_SECONDS = Math.ceil(REFRESH_WINDOW_SECONDS * 0.6);

/** API responses the page received, as `METHOD /path STATUS`, in order. */
function recordApi(page: import('playwright-core').Page): string[] {
  const seenResponses: string[] = [];
  page.on('response', (res: Response) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith('/api/')) seenResponses.push(`${res.request().method()} ${url.pathname} ${res.status()}`);
  });
  return seenResponses;
}

/** Every path the page's main frame was at, in order (client-side navigations included). */
function recordPaths(page: import('playwright-core').Page): string[] {
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  return paths;
}

describe('signing in', () => {
  it('an unverified account is told to verify, with a working link to resend the mail', async () => {
    const { context, page, errors } = await openTab(browser);
    const password = 'correct horse battery';
    const email = await registerUnverified(password);
    await mailedVerificationLink(email, 1);

    await page.goto(web('/login'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const notice = await seen(page.getByRole('status').filter({ hasText: 'Email not verified' }));
    expect(await notice.textContent()).toContain('verify your email');
    expect(pathOf(page)).toBe('/login');
    expect(await storedSession(page)).toEqual(NO_SESSION);

    await notice.getByRole('link', { name: 'Resend verification email' }).click();
    await reached(page, '/resend-verification');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Send verification email' }).click();
    await seen(page.getByRole('heading', { name: 'Check your email' }));
    await seen(page.getByRole('link', { name: 'Back to sign in' }));
    await mailedVerificationLink(email, 2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a wrong password shows one alert and keeps the visitor on /login', async () => {
    const account = await signUp({ name: 'Ada Lovelace' });
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await seen(page.getByRole('alert').filter({ hasText: 'Invalid email or password' }));
    expect(pathOf(page)).toBe('/login');
    expect(await storedSession(page)).toEqual(NO_SESSION);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a protected page sends the visitor to /login and back to that page after signing in', async () => {
    const account = await signUp({ name: 'Ada Lovelace', companyName: 'Analytical Engines' });
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/settings/company'));
    await reached(page, '/login');
    await signInThroughForm(page, account.email, account.password);
    // The address has already left /login here: where it went is decided, nothing left to load.
    await reached(page, '/settings/company', 10_000);
    expect(await page.getByLabel('Company name').inputValue()).toBe('Analytical Engines');
    await seen(page.getByText('Contact support to change your company name'));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a stored session', () => {
  it('that cannot be parsed is cleared at start, and the visitor lands on /login', async () => {
    const account = await signUp();
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    await writeStorage(page, {
      accessToken: account.tokens.accessToken,
      refreshToken: account.tokens.refreshToken,
      user: '{not json',
      company: JSON.stringify(account.company),
    });

    await page.goto(web('/dashboard'));
    await reached(page, '/login');
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    expect(await storedSession(page)).toEqual(NO_SESSION);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with an expired access token is renewed by the refresh token without the user noticing', async () => {
    const account = await signUp({ name: 'Katherine Johnson', companyName: 'Langley Desk' });
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ cid: account.company.id, adm: false })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(account.user.id)
      .setIssuer('switchboard')
      .setAudience('switchboard-app')
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(new TextEncoder().encode(stack().env.JWT_SECRET));

    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    await writeStorage(page, {
      accessToken: expired,
      refreshToken: account.tokens.refreshToken,
      user: JSON.stringify(account.user),
      company: JSON.stringify(account.company),
    });
    const calls = recordApi(page);
    const paths = recordPaths(page);

    const retriedMe = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/me' && res.status() === 200);

    await page.goto(web('/dashboard'));
    await seen(page.getByRole('heading', { name: 'Welcome, Katherine Johnson' }));
    await retriedMe; // after the refresh, the retried /me answers 200
    await expect.poll(async () => (await storedSession(page)).accessToken, { timeout: 10_000 }).not.toBe(expired);
    const renewed = await storedSession(page);
    expect(decodeJwt(renewed.accessToken ?? '').exp ?? 0).toBeGreaterThan(now);
    expect(decodeJwt(renewed.accessToken ?? '').sub).toBe(account.user.id);
    expect(renewed.refreshToken).not.toBe(account.tokens.refreshToken); // refresh tokens rotate
    expect(JSON.parse(renewed.user ?? 'null')).toMatchObject({ id: account.user.id, name: 'Katherine Johnson' });
    // The dashboard's figures (channels, users) load alongside and may wait for the same refresh.
    expect(calls.filter((c) => / \/api\/v1\/(me|auth\/)/.test(c))).toEqual([
      'GET /api/v1/me 401',
      'POST /api/v1/auth/refresh 200',
      'GET /api/v1/me 200',
    ]);
    expect(paths).not.toContain('/login');
    expect(pathOf(page)).toBe('/dashboard');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('stays signed in through a 429 storm on refresh, keeps its refresh token and renews once the storm is over', {
    timeout: 240_000,
  }, async () => {
    const account = await signUp({ name: 'Grace Hopper', companyName: 'Harbor Desk' });
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    // An access token that no longer works (as after its 15 minutes): the next call needs a refresh.
    await writeStorage(page, {
      accessToken: 'expired-access-token',
      refreshToken: account.tokens.refreshToken,
      user: JSON.stringify(account.user),
      company: JSON.stringify(account.company),
    });
    const calls = recordApi(page);
    const paths = recordPaths(page);
    /** The statuses the page's own refreshes (with its refresh token) were answered with. */
    const ownRefreshes: number[] = [];
    page.on('response', (res) => {
      const body = res.request().postData() ?? '';
      if (new URL(res.url()).pathname === '/api/v1/auth/refresh' && body.includes(account.tokens.refreshToken))
        ownRefreshes.push(res.status());
    });

    // The storm: junk refreshes from another tab of the same browser, so from the page's own address.
    const stormTab = await openTab(browser);
    await stormTab.page.goto(web('/login'));
    const junk = () =>
      stormTab.page.evaluate(async () => {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () =>
            fetch('/api/v1/auth/refresh', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ refreshToken: 'AAAAAAAAAAAAAAAAAAAAAA' }),
            }),
          ),
        );
        return answers.map((answer) => ({ status: answer.status, retryAfter: Number(answer.headers.get('retry-after')) }));
      });
    // The page's own refresh is held back until the storm has filled a window with time to spare, then
    // sent at once: a page load on a busy machine could otherwise outlast the window, and a refresh
    // landing in the next one before the storm has filled it again would rightly be answered 200.
    let release = () => {};
    const stormReady = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/auth/refresh', async (route) => {
      await stormReady;
      await route.continue();
    });
    let storming = true;
    const storm = (async () => {
      while (storming) await junk();
    })();
    try {
      await page.goto(web('/dashboard'));
      await expect
        .poll(async () => (await junk()).some((a) => a.status === 429 && a.retryAfter >= STORM_TIME_LEFT_SECONDS), {
          timeout: (REFRESH_WINDOW_SECONDS + 30) * 1000,
        })
        .toBe(true);
      release();
      await expect.poll(() => ownRefreshes.includes(429), { timeout: 60_000 }).toBe(true);
    } finally {
      storming = false;
      await storm;
      await stormTab.context.close();
    }

    // Throttled, not signed out: still on the dashboard, the refresh token kept for the next try.
    expect(pathOf(page)).toBe('/dashboard');
    expect((await storedSession(page)).refreshToken).toBe(account.tokens.refreshToken);
    await seen(page.getByRole('heading', { name: 'Welcome, Grace Hopper' }));

    // The page tries again when the throttle said to (the next window) and carries on with new tokens.
    await expect
      .poll(() => calls.includes('POST /api/v1/auth/refresh 200'), { timeout: (REFRESH_WINDOW_SECONDS + 60) * 1000 })
      .toBe(true);
    await expect.poll(() => calls.includes('GET /api/v1/me 200'), { timeout: 30_000 }).toBe(true);
    const renewed = await storedSession(page);
    expect(renewed.refreshToken).not.toBe(account.tokens.refreshToken);
    expect(decodeJwt(renewed.accessToken ?? '').sub).toBe(account.user.id);
    expect(paths).not.toContain('/login');
    expect(pathOf(page)).toBe('/dashboard');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('whose refresh fails is cleared and the visitor is sent to /login, which says the session has ended', async () => {
    const account = await signUp();
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    await writeStorage(page, {
      accessToken: 'not-a-jwt',
      refreshToken: 'not-a-refresh-token',
      user: JSON.stringify(account.user),
      company: JSON.stringify(account.company),
    });

    await page.goto(web('/dashboard'));
    await reached(page, '/login');
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    await seen(page.getByText('Your session has ended. Please sign in again.'));
    await expect.poll(() => page.title()).toBe('Sign in · Switchboard');
    expect(await storedSession(page)).toEqual(NO_SESSION);
    // Said once: a later visit to /login is an ordinary one.
    await page.reload();
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    expect(await page.getByText('Your session has ended. Please sign in again.').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the verification link', () => {
  it('without a token says so', async () => {
    const { context, page } = await openTab(browser);
    await page.goto(web('/verify-email'));
    await seen(page.getByRole('heading', { name: 'Verification failed' }));
    await seen(page.getByText('Invalid verification link. No token provided.'));
    await seen(page.getByRole('link', { name: 'Back to sign in' }));
    await context.close();
  });

  it('used a second time shows the server message', async () => {
    const account = await signUp();
    const link = await mailedVerificationLink(account.email);
    const { context, page } = await openTab(browser);
    await page.goto(link);
    await seen(page.getByRole('heading', { name: 'Verification failed' }));
    await seen(page.getByText('This verification link is invalid or has already been used.'));
    await seen(page.getByRole('link', { name: 'Back to sign in' }));
    expect(pathOf(page).startsWith('/verify-email')).toBe(true);
    await context.close();
  });

  it('used again by the signed-in person says the e-mail is already verified, with the way to the dashboard', async () => {
    const account = await signUp({ password: 'correct horse battery' });
    const link = await mailedVerificationLink(account.email);
    const { context, page, errors } = await openTab(browser);
    await signInThroughForm(page, account.email, 'correct horse battery');
    await page.goto(link);
    await seen(page.getByRole('heading', { name: 'Email already verified' }));
    await seen(page.getByText('Your e-mail is already verified.'));
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await reached(page, '/dashboard');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('that has expired offers to request a new one', async () => {
    const email = await registerUnverified('correct horse battery');
    const link = await mailedVerificationLink(email);
    await expireVerificationLink(link);
    const { context, page, errors } = await openTab(browser);
    await page.goto(link);
    await seen(page.getByRole('heading', { name: 'Verification failed' }));
    await seen(page.getByText('Your verification link has expired.', { exact: true }));
    expect(await page.getByText(/expired/).count()).toBe(1);
    await page.getByRole('link', { name: 'Request a new verification email' }).click();
    await reached(page, '/resend-verification');
    await seen(page.getByRole('button', { name: 'Send verification email' }));
    expect(await storedSession(page)).toEqual(NO_SESSION);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('two tabs of one browser', () => {
  /** The stored access token replaced by an expired one with the same claims, as if 15 minutes had passed. */
  async function expire(accessToken: string): Promise<string> {
    const { exp: _exp, iat: _iat, ...claims } = decodeJwt(accessToken);
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(new TextEncoder().encode(stack().env.JWT_SECRET));
  }

  it('both stay signed in across an access-token expiry, with one refresh between them', async () => {
    const account = await signUp({ name: 'Dorothy Vaughan' });
    const { context, page: first, errors } = await openTab(browser);
    await signInThroughForm(first, account.email, account.password);
    await seen(first.getByRole('heading', { name: 'Welcome, Dorothy Vaughan' }));
    const second = await context.newPage();
    second.on('pageerror', (error) => errors.push(error));
    await second.goto(web('/dashboard'));
    await seen(second.getByRole('heading', { name: 'Welcome, Dorothy Vaughan' }));

    // Recorded from before the swap: a tab's own background call (its socket's ticket) may be the one to refresh.
    const calls = [recordApi(first), recordApi(second)];
    // A third tab (no app in it) swaps the token, so both app tabs hear of it as they would of a refresh.
    const expired = await expire((await storedSession(first)).accessToken ?? '');
    const other = await context.newPage();
    await other.goto(web('/favicon.svg'));
    await writeStorage(other, { accessToken: expired });
    await other.close();

    // Pages show cached lists at once and refetch behind them: wait for the refresh itself, not the heading.
    const isRefresh = (r: Response) => new URL(r.url()).pathname === '/api/v1/auth/refresh';
    const refreshed = Promise.race([first, second].map((page) => page.waitForResponse(isRefresh)));
    await Promise.all(
      [first, second].map((page) =>
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click(),
      ),
    );
    for (const page of [first, second]) {
      await reached(page, '/settings/providers');
      await seen(page.getByRole('heading', { name: 'Providers' }));
    }
    expect((await refreshed).status()).toBe(200);
    // The tab stores the new tokens just after the answer arrives.
    await expect.poll(async () => (await storedSession(first)).accessToken, { timeout: 10_000 }).not.toBe(expired);

    // Both carry on with the new tokens: each tab's next call is answered at once, with no second refresh.
    for (const page of [first, second]) {
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/users');
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Team' }).click();
      expect((await answered).status()).toBe(200);
      expect(pathOf(page)).toBe('/settings/team');
    }
    const refreshes = calls.flat().filter((c) => c.startsWith('POST /api/v1/auth/refresh'));
    expect(refreshes).toEqual(['POST /api/v1/auth/refresh 200']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Logout in one ends the session on the server and signs the other tab out too', async () => {
    const account = await signUp();
    const { context, page: first, errors } = await openTab(browser);
    await signInThroughForm(first, account.email, account.password);
    const second = await context.newPage();
    await second.goto(web('/settings/profile'));
    await seen(second.getByLabel('Full name'));
    const { refreshToken } = await storedSession(first);

    const loggedOut = first.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/auth/logout');
    await first.getByRole('button', { name: 'Logout' }).click();
    await reached(first, '/login');
    expect((await loggedOut).status()).toBe(200);
    await reached(second, '/login');
    const copied = await api('/api/v1/auth/refresh', { body: { refreshToken } });
    expect(copied.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Sign out everywhere on the Profile page asks first, then ends the sessions of other devices too', async () => {
    const account = await signUp();
    const { context, page, errors } = await openTab(browser);
    await signInThroughForm(page, account.email, account.password);
    await page.goto(web('/settings/profile'));
    const button = page.getByRole('button', { name: 'Sign out everywhere' });
    await button.click();

    // An accessible confirmation: focus on Cancel, and Escape (or Cancel) keeps every session.
    const confirm = await seen(page.getByRole('alertdialog', { name: 'Sign out everywhere?' }));
    await seen(confirm.getByText('on every device and browser, this one included'));
    expect(await isFocused(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await page.keyboard.press('Escape');
    await gone(confirm);
    expect(await isFocused(button)).toBe(true);
    await button.click();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await gone(confirm);
    expect(pathOf(page)).toBe('/settings/profile');
    expect((await storedSession(page)).refreshToken).toBeTruthy();

    await button.click();
    await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
    await reached(page, '/login');
    expect((await api('/api/v1/auth/refresh', { body: { refreshToken: account.tokens.refreshToken } })).status).toBe(401);
    expect(await storedSession(page)).toEqual(NO_SESSION);
    expect(errors).toEqual([]);
    await context.close();
  });
});
