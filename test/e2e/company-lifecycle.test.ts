import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/api';
import {
  gone,
  isFocused,
  launchBrowser,
  mailedVerificationLink,
  reached,
  SESSION_KEYS,
  seen,
  signedInTab,
  storedSession,
  tabsClosedAfterEach,
  web,
} from '../support/browser';
import { endpoints } from '../support/endpoints';

/**
 * The company's lifecycle in the browser (docs/product.md: Deleting a company): the owner deletes the
 * company from Settings → Company and is signed out for good, with the address free again. The
 * request whose pending state is checked is held until it has been seen, so no assertion races the
 * stack, however loaded the machine. A platform administrator's deletion and message retention are
 * single screens: their component tests (admin-page, company-page) and the integration tests
 * (company-deletion) prove them.
 */
let browser: Browser;
const PASSWORD = 'correct horse battery';
const tabs = tabsClosedAfterEach();

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedIn(account: { email: string; password: string }, path: string): Promise<Page> {
  const tab = await signedInTab(browser, account, { path });
  tabs.push(tab);
  return tab.page;
}

/**
 * Holds the page's next request of `method` to the API path until `release` is called: what the page
 * shows while it waits for the answer can then be checked without racing it.
 */
async function holdRequest(page: Page, method: string, path: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let sent = false;
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() === method) {
        sent = true;
        await released;
      }
      await route.continue();
    },
  );
  return { release, sent: () => sent };
}

/** The dialog's field is focused, its confirm button disabled until the exact name is typed. */
async function expectNameRequired(dialog: Locator, name: string) {
  const field = dialog.getByLabel(`Type ${name} to confirm`);
  const confirm = dialog.getByRole('button', { name: 'Delete company' });
  await expect.poll(() => isFocused(field)).toBe(true);
  expect(await confirm.isDisabled()).toBe(true);
  await field.fill(name.toLowerCase());
  expect(await confirm.isDisabled()).toBe(true);
  await field.fill(`${name} Inc`);
  expect(await confirm.isDisabled()).toBe(true);
  await field.fill(name);
  expect(await confirm.isEnabled()).toBe(true);
  return { field, confirm };
}

describe('Settings → Company: the owner deletes the company', () => {
  it('asks for the exact name, shows it is deleting, signs out with a notice, and the address can sign up again', async () => {
    const owner = await signUp({ companyName: 'Umbrella Holdings', name: 'Albert Wesker', password: PASSWORD });
    const page = await signedIn(owner, '/settings/company');
    await seen(page.getByRole('heading', { name: 'Danger zone' }));
    const open = page.getByRole('button', { name: 'Delete company' });
    const dialog = page.getByRole('alertdialog', { name: 'Delete Umbrella Holdings?' });

    // Keyboard: Escape closes the dialog and gives focus back to the button that opened it.
    await open.click();
    await seen(dialog);
    await expect.poll(() => isFocused(dialog.getByLabel('Type Umbrella Holdings to confirm'))).toBe(true);
    await page.keyboard.press('Escape');
    await gone(dialog);
    await expect.poll(() => isFocused(open)).toBe(true);

    await open.click();
    const { field, confirm } = await expectNameRequired(dialog, 'Umbrella Holdings');
    const held = await holdRequest(page, endpoints.deleteCompany.method, endpoints.deleteCompany.path);
    await confirm.click();
    const pending = await seen(dialog.getByRole('button', { name: 'Deleting...' }));
    expect(await pending.isDisabled()).toBe(true);
    expect(await field.isEditable()).toBe(false);
    expect(held.sent()).toBe(true);
    held.release();

    await reached(page, '/login');
    await seen(page.getByText('Your company is being deleted with all its data. You have been signed out.'));
    const session = await storedSession(page);
    for (const key of SESSION_KEYS) expect(session[key], key).toBeNull();

    // The account is gone: the same password no longer signs in.
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await seen(page.getByText('Invalid email or password'));

    // The address is free: it signs up again, with a verification link (not the "already has an account" mail).
    await page.goto(web('/register'));
    await page.getByLabel('Company name').fill('Umbrella Again');
    await page.getByLabel('Full name').fill('Albert Wesker');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await seen(page.getByRole('heading', { name: 'Check your email' }));
    await page.goto(await mailedVerificationLink(owner.email, 2));
    await reached(page, '/dashboard');
    await seen(page.getByText('Here is an overview of Umbrella Again.'));
  });
});
