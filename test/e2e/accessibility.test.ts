import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from '../support/api';
import {
  isDark,
  launchBrowser,
  openTab,
  registerUnverified,
  seen,
  seriousA11yViolations,
  signedInTab,
  type Tab,
  web,
} from '../support/browser';

/**
 * axe-core finds nothing of impact serious or critical on the public pages, the dashboard and the
 * settings shell, in the light and the dark theme (chosen here by the system preference, which the
 * app follows when nothing is stored).
 */
let browser: Browser;
let account: Account;
let unverifiedEmail: string;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  browser = await launchBrowser();
  account = await signUp({ name: 'Ada Lovelace', companyName: 'Analytical Engines', password: PASSWORD });
  unverifiedEmail = await registerUnverified(PASSWORD);
});
afterAll(async () => {
  await browser?.close();
});

interface Screen {
  name: string;
  path: string;
  /** Waits for the screen's content; may also bring the page into a state (errors shown, ...). */
  ready: (page: Page) => Promise<unknown>;
}

const heading = (name: string) => (page: Page) => seen(page.getByRole('heading', { name }));

const PUBLIC: Screen[] = [
  { name: 'login', path: '/login', ready: heading('Sign in') },
  {
    name: 'login, wrong password alert',
    path: '/login',
    ready: async (page) => {
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await seen(page.getByRole('alert').filter({ hasText: 'Invalid email or password' }));
    },
  },
  {
    name: 'login, email not verified notice',
    path: '/login',
    ready: async (page) => {
      await page.getByLabel('Email').fill(unverifiedEmail);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await seen(page.getByText('Email not verified'));
    },
  },
  { name: 'register', path: '/register', ready: heading('Create your account') },
  {
    name: 'register, field errors',
    path: '/register',
    ready: async (page) => {
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await seen(page.getByText('Password must be at least 8 characters long'));
      await seen(page.getByText('Company name is required'));
    },
  },
  { name: 'verify-email without a token', path: '/verify-email', ready: heading('Verification failed') },
  { name: 'resend-verification', path: '/resend-verification', ready: heading('Resend verification email') },
  { name: 'unknown path', path: '/no-such-page', ready: heading('Page not found') },
];

const SIGNED_IN: Screen[] = [
  { name: 'dashboard', path: '/dashboard', ready: heading('Welcome, Ada Lovelace') },
  { name: 'settings/profile', path: '/settings/profile', ready: (page) => seen(page.getByText('Profile editing coming soon')) },
  {
    name: 'settings/company',
    path: '/settings/company',
    ready: (page) => seen(page.getByText('Contact support to change your company name')),
  },
];

describe.each(['light', 'dark'] as const)('in the %s theme', (theme) => {
  let visitor: Tab;
  let member: Tab;

  beforeAll(async () => {
    visitor = await openTab(browser, { colorScheme: theme });
    member = await signedInTab(browser, account, { colorScheme: theme });
  });
  afterAll(async () => {
    await visitor?.context.close();
    await member?.context.close();
  });

  async function check(tab: Tab, screen: Screen) {
    await tab.page.goto(web(screen.path));
    await screen.ready(tab.page);
    expect(await isDark(tab.page), 'theme applied').toBe(theme === 'dark');
    const violations = await seriousA11yViolations(tab.page);
    expect(violations, `axe on ${screen.path} (${screen.name}, ${theme}):\n${violations.join('\n')}`).toEqual([]);
    expect(tab.errors).toEqual([]);
  }

  it.each(PUBLIC)('public page: $name', (screen) => check(visitor, screen));
  it.each(SIGNED_IN)('signed-in page: $name', (screen) => check(member, screen));
});

describe('the check itself', () => {
  it('finds what a person with a screen reader or low vision would meet: a nameless button and grey on grey text', async () => {
    const tab = await openTab(browser);
    try {
      await tab.page.goto(web('/login'));
      await heading('Sign in')(tab.page);
      await tab.page.evaluate(() => {
        const button = document.createElement('button');
        button.innerHTML = '<svg width="16" height="16"></svg>';
        const faint = document.createElement('p');
        faint.textContent = 'Hard to read';
        faint.style.cssText = 'color:#bbb;background:#ccc';
        document.body.append(button, faint);
      });
      const violations = await seriousA11yViolations(tab.page);
      expect(violations.map((v) => v.split(' ')[0])).toEqual(expect.arrayContaining(['button-name', 'color-contrast']));
      // Run again in the same document (axe is put in once): the same answer.
      expect((await seriousA11yViolations(tab.page)).length).toBe(violations.length);
    } finally {
      await tab.context.close();
    }
  });
});
