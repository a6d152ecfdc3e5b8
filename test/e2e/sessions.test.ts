import { decodeJwt, SignJWT } from 'jose';
import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TOKEN_FAILURE_WINDOW_SECONDS } from '../../shared/constants';
import { isPathOf } from '../../shared/contract/route';
import { callRoute, signUp, stack } from '../support/api';
import {
  gone,
  isFocused,
  launchBrowser,
  openTab,
  pathOf,
  reached,
  seen,
  signInThroughForm,
  storedSession,
  web,
  writeStorage,
} from '../support/browser';
import { endpoints } from '../support/endpoints';
import { advanceStackClock, stackClock } from '../support/stack-clock';
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

/** A route of no `{param}`s as recordApi writes it, before the status: `METHOD /path`. */
const routeLine = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;

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

/**
 * What a stored session does at start (unparseable, renewed, a refresh that fails), the sign-in form's
 * errors and the verification page are single screens: web/src/app/app.test.tsx and the auth
 * components' tests prove them. What needs a real browser stays: two tabs sharing one session, and the
 * real throttle's 429 storm.
 */
describe('a stored session', () => {
  it('stays signed in through a 429 storm on refresh, keeps its refresh token and renews once the storm is over', async () => {
    const account = await signUp({ name: 'Grace Hopper', companyName: 'Harbor Desk' });
    const { context, page, errors } = await openTab(browser);
    // The page's clock (Playwright's, with the wall clock until the test moves it): its retry waits for
    // the throttle's Retry-After, which the test moves it past rather than waiting.
    await context.clock.install();
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
    /** The statuses the page's own refreshes (with its refresh token) were answered with, and the last Retry-After. */
    const ownRefreshes: number[] = [];
    let retryAfterSeconds = 0;
    page.on('response', (res) => {
      const body = res.request().postData() ?? '';
      if (isPathOf(endpoints.refresh.path, res.url()) && body.includes(account.tokens.refreshToken)) {
        retryAfterSeconds = Number(res.headers()['retry-after'] ?? 0);
        ownRefreshes.push(res.status());
      }
    });

    // The storm: junk refreshes from another tab of the same browser, so from the page's own address.
    const stormTab = await openTab(browser);
    await stormTab.page.goto(web('/login'));
    const junk = () =>
      stormTab.page.evaluate(async (refreshPath) => {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () =>
            fetch(refreshPath, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ refreshToken: 'AAAAAAAAAAAAAAAAAAAAAA' }),
            }),
          ),
        );
        return answers.map((answer) => ({ status: answer.status, retryAfter: Number(answer.headers.get('retry-after')) }));
      }, endpoints.refresh.path);
    // The page's own refresh is held back until the storm has filled a window with time to spare, then
    // sent at once: a page load on a busy machine could otherwise outlast the window, and a refresh
    // landing in the next one before the storm has filled it again would rightly be answered 200.
    let release = () => {};
    const stormReady = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**${endpoints.refresh.path}`, async (route) => {
      await stormReady;
      await route.continue();
    });
    let storming = true;
    const storm = (async () => {
      while (storming) await junk();
    })();
    try {
      await page.goto(web('/dashboard'));
      // The stack's clock moves to the start of the next throttle window (functions/lib/throttle.ts
      // counts in fixed windows), which the storm then fills with all of it left.
      const { nowMs } = await stackClock();
      const windowMs = REFRESH_WINDOW_SECONDS * 1000;
      await advanceStackClock((Math.floor(nowMs / windowMs) + 1) * windowMs - nowMs);
      await expect
        .poll(async () => (await junk()).some((a) => a.status === 429 && a.retryAfter >= STORM_TIME_LEFT_SECONDS))
        .toBe(true);
      release();
      await expect.poll(() => ownRefreshes.includes(429)).toBe(true);
    } finally {
      storming = false;
      await storm;
      await stormTab.context.close();
    }

    // Throttled, not signed out: still on the dashboard, the refresh token kept for the next try.
    expect(pathOf(page)).toBe('/dashboard');
    expect((await storedSession(page)).refreshToken).toBe(account.tokens.refreshToken);
    await seen(page.getByRole('heading', { name: 'Welcome, Grace Hopper' }));

    // The page tries again when the throttle said to (the next window) and carries on with new tokens:
    // the stack's clock and the page's move together past the Retry-After, into the next window.
    expect(retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfterSeconds).toBeLessThanOrEqual(REFRESH_WINDOW_SECONDS);
    const pastWindowMs = (retryAfterSeconds + 1) * 1000;
    await advanceStackClock(pastWindowMs);
    await page.clock.runFor(pastWindowMs);
    await expect.poll(() => calls.includes(`${routeLine(endpoints.refresh)} 200`)).toBe(true);
    await expect.poll(() => calls.includes(`${routeLine(endpoints.me)} 200`)).toBe(true);
    const renewed = await storedSession(page);
    expect(renewed.refreshToken).not.toBe(account.tokens.refreshToken);
    expect(decodeJwt(renewed.accessToken ?? '').sub).toBe(account.user.id);
    expect(paths).not.toContain('/login');
    expect(pathOf(page)).toBe('/dashboard');
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
    const isRefresh = (r: Response) => isPathOf(endpoints.refresh.path, r.url());
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
      const answered = page.waitForResponse((r) => isPathOf(endpoints.listUsers.path, r.url()));
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Team' }).click();
      expect((await answered).status()).toBe(200);
      expect(pathOf(page)).toBe('/settings/team');
    }
    const refreshes = calls.flat().filter((c) => c.startsWith(`${routeLine(endpoints.refresh)} `));
    expect(refreshes).toEqual([`${routeLine(endpoints.refresh)} 200`]);
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

    const loggedOut = first.waitForResponse((res) => isPathOf(endpoints.logout.path, res.url()));
    await first.getByRole('button', { name: 'Logout' }).click();
    await reached(first, '/login');
    expect((await loggedOut).status()).toBe(200);
    await reached(second, '/login');
    const copied = await callRoute(endpoints.refresh, { body: { refreshToken: String(refreshToken) } });
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
    expect((await callRoute(endpoints.refresh, { body: { refreshToken: account.tokens.refreshToken } })).status).toBe(401);
    expect(await storedSession(page)).toEqual(NO_SESSION);
    expect(errors).toEqual([]);
    await context.close();
  });
});
