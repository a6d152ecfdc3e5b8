import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/api';
import {
  gone,
  isDark,
  launchBrowser,
  linkToken,
  mailedVerificationLink,
  openTab,
  reached,
  requestedUrls,
  SESSION_KEYS,
  seen,
  signInThroughForm,
  storedSession,
  web,
} from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('a new company signs up in the browser', () => {
  it('registers, verifies from the mail, lands on the dashboard, keeps its theme, logs out and comes back', async () => {
    const { context, page, errors } = await openTab(browser, { colorScheme: 'light' });
    const email = uniqueEmail('grace');
    const password = 'correct horse battery';

    // Register (what each field refuses is the component tests' subject: register-page.test.tsx).
    await page.goto(web('/register'));
    await seen(page.getByRole('heading', { name: 'Create your account' }));
    await page.getByLabel('Company name').fill('Globex Helpdesk');
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await seen(page.getByRole('heading', { name: 'Check your email' }));
    await seen(page.getByText(email));
    expect(await page.getByRole('link', { name: 'Resend verification email' }).getAttribute('href')).toBe('/resend-verification');
    expect(await page.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');

    // The mailed link opens the app, verifies, and after the 2 s pause shows the dashboard.
    const link = await mailedVerificationLink(email);
    expect(link.startsWith(web('/verify-email#token='))).toBe(true);
    const requested = requestedUrls(page);
    await page.goto(link);
    await seen(page.getByRole('heading', { name: 'Email verified' }));
    // The token left the address bar at once, and no request carried it in its URL.
    expect(page.url()).toBe(web('/verify-email'));
    expect(requested.filter((url) => url.includes(linkToken(link)))).toEqual([]);
    await reached(page, '/dashboard');
    await seen(page.getByRole('heading', { level: 1, name: 'Welcome, Grace Hopper' }));
    await seen(page.getByText('Here is an overview of Globex Helpdesk.'));
    const main = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Dashboard', 'Contacts', 'Call History', 'Conversations', 'Settings']) {
      await seen(main.getByRole('link', { name }));
    }
    await seen(page.getByText(email, { exact: true }));
    const session = await storedSession(page);
    for (const key of SESSION_KEYS) expect(session[key], key).toBeTruthy();

    // Dark theme from the sidebar survives a reload, and is in place before the app's script runs.
    expect(await isDark(page)).toBe(false);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await seen(page.getByRole('button', { name: 'Switch to light theme' }));
    expect(await isDark(page)).toBe(true);
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');
    await context.addInitScript(() => {
      // Records the theme at the moment <body> is parsed: after index.html's head script, before any paint.
      new MutationObserver((_, observer) => {
        if (!document.body) return;
        (window as unknown as { themeAtFirstBody: boolean }).themeAtFirstBody =
          document.documentElement.classList.contains('dark');
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await seen(page.getByRole('heading', { name: 'Welcome, Grace Hopper' }));
    expect(await page.evaluate(() => (window as unknown as { themeAtFirstBody?: boolean }).themeAtFirstBody)).toBe(true);
    expect(await isDark(page)).toBe(true);
    await seen(page.getByRole('button', { name: 'Switch to light theme' }));

    // Logout clears the session; a protected page then asks to sign in and returns there afterwards.
    await page.getByRole('button', { name: 'Logout' }).click();
    await reached(page, '/login');
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    expect(await storedSession(page)).toEqual({ accessToken: null, refreshToken: null, user: null, company: null });
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');

    await page.goto(web('/settings/profile'));
    await reached(page, '/login');
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    await signInThroughForm(page, email, password);
    // The address has already left /login here: where it went is decided, nothing left to load.
    await reached(page, '/settings/profile', 10_000);
    await seen(page.getByRole('button', { name: 'Save name' }));
    expect(await page.getByLabel('Full name').inputValue()).toBe('Grace Hopper');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Role').inputValue()).toBe('Owner');
    await seen(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Profile' }));
    await gone(page.getByRole('button', { name: 'Sign in' }));

    expect(errors).toEqual([]);
    await context.close();
  });
});
