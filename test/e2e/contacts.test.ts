import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from '../support/api';
import { fieldState, gone, isFocused, launchBrowser, PHONE, reached, seen, signedInTab } from '../support/browser';

/**
 * The contact book and Call History in the browser, against the local stack: create, search, edit and
 * delete a contact; Call History's filters in the address; a 360 px phone. The admin overview is
 * admin.test.ts's, its refusal and Admin link the component tests' (admin-page, app-shell).
 */
let browser: Browser;
let account: Account;

beforeAll(async () => {
  browser = await launchBrowser();
  account = await signUp({ name: 'Ada Lovelace', companyName: 'Analytical Engines' });
});
afterAll(async () => {
  await browser?.close();
});

const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

describe('contacts and call history', () => {
  it('creates, searches, edits and deletes a contact', async () => {
    const { page, errors, context } = await signedInTab(browser, account, { colorScheme: 'light' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await reached(page, '/contacts');
    await seen(page.getByText('No contacts yet'));

    // New Contact: the number is required, then typed nationally and shown formatted.
    await page.getByRole('button', { name: 'New Contact' }).click();
    const create = await seen(page.getByRole('dialog', { name: 'New Contact' }));
    await create.getByLabel('Name').fill('Grace Hopper');
    await create.getByRole('button', { name: 'Create Contact' }).click();
    await seen(create.getByText('Phone number is required'));
    await create.getByLabel('Phone Number').fill('202 555 0143');
    await create.getByLabel('Email').fill('grace@navy.example');
    await create.getByRole('button', { name: 'Create Contact' }).click();
    await gone(create);
    const grace = await seen(row(page, 'Grace Hopper'));
    expect(await grace.textContent()).toContain('(202) 555-0143');
    expect(await grace.textContent()).toContain('Never');

    // The same number again is refused by the server, in the dialog.
    await page.getByRole('button', { name: 'New Contact' }).click();
    const again = await seen(page.getByRole('dialog', { name: 'New Contact' }));
    await again.getByLabel('Phone Number').fill('+1 202-555-0143');
    await again.getByRole('button', { name: 'Create Contact' }).click();
    await seen(again.getByText('A contact with this phone number already exists.'));
    await again.getByRole('button', { name: 'Cancel' }).click();
    await gone(again);

    await page.getByRole('button', { name: 'New Contact' }).click();
    const second = await seen(page.getByRole('dialog', { name: 'New Contact' }));
    await second.getByLabel('Name').fill('Alan Turing');
    await second.getByLabel('Phone Number').fill('(415) 555-0188');
    await second.getByRole('button', { name: 'Create Contact' }).click();
    await gone(second);
    await seen(row(page, 'Alan Turing'));

    // Search by part of the number, then by e-mail.
    const search = page.getByRole('searchbox', { name: 'Search contacts' });
    await search.fill('(202) 555');
    await gone(row(page, 'Alan Turing'));
    await seen(row(page, 'Grace Hopper'));
    await search.fill('NAVY');
    await seen(row(page, 'Grace Hopper'));
    await search.fill('zzz');
    await seen(page.getByText('No contacts match your search'));
    await search.fill('');
    await seen(row(page, 'Alan Turing'));

    // Edit: the number is read-only.
    await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
    const edit = await seen(page.getByRole('dialog', { name: 'Edit Contact' }));
    expect(await edit.getByLabel('Phone Number').getAttribute('readonly')).not.toBeNull();
    await seen(edit.getByText('Phone number cannot be changed'));
    await edit.getByLabel('Name').fill('Rear Admiral Grace Hopper');
    await edit.getByRole('button', { name: 'Save Contact' }).click();
    await gone(edit);
    await seen(row(page, 'Rear Admiral Grace Hopper'));

    // Delete asks first, naming the contact.
    await page.getByRole('button', { name: 'Delete Alan Turing' }).click();
    const confirm = await seen(page.getByRole('alertdialog'));
    expect(await confirm.textContent()).toContain('Are you sure you want to delete Alan Turing?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await gone(confirm);
    await gone(row(page, 'Alan Turing'));

    // A phone at 360 px: nothing scrolls sideways.
    await page.setViewportSize(PHONE);
    await seen(page.getByText('Rear Admiral Grace Hopper'));
    expect(await overflowsSideways(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('New Contact says what is wrong with every field at once', async () => {
    const { page, errors, context } = await signedInTab(browser, account, { path: '/contacts' });
    await page.getByRole('button', { name: 'New Contact' }).click();
    const dialog = await seen(page.getByRole('dialog', { name: 'New Contact' }));
    await dialog.getByLabel('Email').fill('grace@');
    await dialog.getByRole('button', { name: 'Create Contact' }).click();
    await seen(dialog.getByText('Phone number is required'));
    const phone = dialog.getByLabel('Phone Number');
    expect(await fieldState(phone)).toEqual({ invalid: true, description: 'Phone number is required' });
    expect(await fieldState(dialog.getByLabel('Email'))).toEqual({ invalid: true, description: 'Enter a valid email address' });
    expect(await isFocused(phone)).toBe(true);

    // A number that is none of the company's country is refused with the e-mail, as the server would.
    await phone.fill('555');
    await dialog.getByRole('button', { name: 'Create Contact' }).click();
    await seen(dialog.getByText('Enter a valid phone number'));
    expect(await fieldState(dialog.getByLabel('Email'))).toEqual({ invalid: true, description: 'Enter a valid email address' });
    await dialog.getByLabel('Email').fill('grace@navy.example');
    await phone.fill('202 555 0199');
    await dialog.getByRole('button', { name: 'Create Contact' }).click();
    await gone(dialog);
    await seen(row(page, '(202) 555-0199'));
    expect(errors).toEqual([]);
    await context.close();
  });

  // What the filters do; calls themselves are in call-history.test.ts, the list's states in the component tests.
  it('keeps Call History filters in the address, through a reload, and clears them', async () => {
    const { page, errors, context } = await signedInTab(browser, account, { colorScheme: 'dark' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call History' }).click();
    await reached(page, '/calls');
    await seen(page.getByRole('heading', { name: 'Call History' }));
    expect(await page.getByRole('button', { name: 'Clear Filters' }).isDisabled()).toBe(true);

    await page.getByLabel('Status', { exact: true }).selectOption('COMPLETED');
    await page.getByLabel('From date').fill('2026-01-01');
    await page.getByLabel('To date').fill('2026-01-31');
    await reached(page, '/calls?status=COMPLETED&from=2026-01-01&to=2026-01-31');
    await page.reload();
    await seen(page.getByRole('heading', { name: 'Call History' }));
    await expect.poll(() => page.getByLabel('Status', { exact: true }).inputValue()).toBe('COMPLETED');
    await expect.poll(() => page.getByLabel('From date').inputValue()).toBe('2026-01-01');
    await expect.poll(() => page.getByLabel('To date').inputValue()).toBe('2026-01-31');

    // A From after the To is said in words; the To field is bounded by the From.
    await page.getByLabel('To date').fill('2025-12-31');
    await seen(page.getByRole('alert').getByText('From date must be on or before To date'));
    expect(await page.getByLabel('To date').getAttribute('min')).toBe('2026-01-01');

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await reached(page, '/calls');
    // The address changes first; the form follows on the next render.
    await expect.poll(() => page.getByLabel('Status', { exact: true }).inputValue()).toBe('');
    await expect.poll(() => page.getByLabel('From date').inputValue()).toBe('');
    await page.setViewportSize(PHONE);
    expect(await overflowsSideways(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
