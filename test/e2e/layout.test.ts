import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../bench/lib/paths';
import { type Account, signUp } from '../support/api';
import {
  DESKTOP,
  gone,
  isDark,
  launchBrowser,
  openTab,
  PHONE,
  reached,
  seen,
  signedInTab,
  signInThroughForm,
  web,
} from '../support/browser';

/** Screenshots for docs/ (committed), and the phone width. */
const SHOTS = join(repoRoot, 'docs', 'screenshots');
const PASSWORD = 'correct horse battery';

let browser: Browser;
let account: Account;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  // A fixed address (each run has a fresh database), so the committed screenshots only change with the app.
  account = await signUp({
    email: 'ada@analytical-engines.example',
    name: 'Ada Lovelace',
    companyName: 'Analytical Engines',
    password: PASSWORD,
  });
});
afterAll(async () => {
  await browser?.close();
});

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), animations: 'disabled', caret: 'hide', scale: 'css' });

/** Horizontal overflow makes a phone scroll sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('screenshots at 1280 x 800', () => {
  it.each(['light', 'dark'] as const)('login, %s', async (theme) => {
    const { context, page, errors } = await openTab(browser, { viewport: DESKTOP, colorScheme: theme });
    await page.goto(web('/login'));
    await seen(page.getByRole('button', { name: 'Sign in' }));
    expect(await isDark(page)).toBe(theme === 'dark');
    await shoot(page, `login-${theme}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)('dashboard, %s', async (theme) => {
    const { context, page, errors } = await signedInTab(browser, account, { viewport: DESKTOP, colorScheme: theme });
    await reached(page, '/dashboard');
    await seen(page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }));
    await seen(page.getByText('Invite team members'));
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await isDark(page)).toBe(theme === 'dark');
    await page.mouse.move(DESKTOP.width - 1, DESKTOP.height - 1); // no hover highlight in the picture
    await shoot(page, `dashboard-${theme}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('keyboard', () => {
  it('/login starts in Email; a signed-in page skips straight to its content from the first Tab', async () => {
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    await expect.poll(() => page.getByLabel('Email').evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => page.title()).toBe('Sign in · Switchboard');

    await signInThroughForm(page, account.email, PASSWORD);
    await reached(page, '/dashboard');
    await seen(page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }));
    await expect.poll(() => page.title()).toBe('Dashboard · Switchboard');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    // The next Tab lands in the content, not back in the sidebar.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('at 360 px wide', () => {
  it('the menu shows a long name and e-mail whole, wrapped rather than cut', async () => {
    const long = await signUp({
      name: 'Maximiliana Alexandrina Featherstonehaugh-Worthington',
      email: `maximiliana.featherstonehaugh.worthington.${Date.now()}@analytical-engines.example`,
      companyName: 'Analytical Engines',
      password: PASSWORD,
    });
    const { context, page, errors } = await signedInTab(browser, long, { viewport: PHONE });
    await reached(page, '/dashboard');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sidebar = page.locator('#sidebar');
    for (const text of [sidebar.getByText(long.user.name), sidebar.getByText(long.email)]) {
      await seen(text);
      expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth), String(await text.textContent())).toBe(true);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the public pages do not scroll sideways', async () => {
    const { context, page, errors } = await openTab(browser, { viewport: PHONE });
    for (const [path, heading] of [
      ['/login', 'Sign in'],
      ['/register', 'Create your account'],
      ['/resend-verification', 'Resend verification email'],
    ] as const) {
      await page.goto(web(path));
      await seen(page.getByRole('heading', { name: heading }));
      expect(await pageWidth(page), path).toBeLessThanOrEqual(PHONE.width);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the signed-in pages do not scroll sideways, and the menu opens from its button', async () => {
    const { context, page, errors } = await signedInTab(browser, account, { viewport: PHONE });
    await reached(page, '/dashboard');
    await seen(page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }));
    expect(await pageWidth(page), '/dashboard').toBeLessThanOrEqual(PHONE.width);

    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    const open = page.getByRole('button', { name: 'Open menu' });
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    await open.click();
    await seen(nav);
    await seen(page.getByRole('button', { name: 'Close menu' }));
    expect(await pageWidth(page), '/dashboard, menu open').toBeLessThanOrEqual(PHONE.width);
    await nav.getByRole('link', { name: 'Settings' }).click();
    await reached(page, '/settings/providers');
    await gone(nav);
    expect(await pageWidth(page), '/settings/providers').toBeLessThanOrEqual(PHONE.width);

    // On by the app's links, as a person goes: a page load would start the app again.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Profile', exact: true }).click();
    await reached(page, '/settings/profile');
    await seen(page.getByRole('button', { name: 'Save name' }));
    expect(await pageWidth(page), '/settings/profile').toBeLessThanOrEqual(PHONE.width);

    // Call History's filters (status, two dates, Clear Filters) wrap rather than widen the page.
    await open.click();
    await nav.getByRole('link', { name: 'Call History' }).click();
    await reached(page, '/calls');
    await gone(nav);
    await seen(page.getByRole('button', { name: 'Clear Filters' }));
    expect(await pageWidth(page), '/calls').toBeLessThanOrEqual(PHONE.width);
    expect(errors).toEqual([]);
    await context.close();
  });
});
