import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { launchBrowser, PHONE, seen, signedInTab, UI_TIMEOUT_MS } from '../support/browser';
import { smsLine } from '../support/sms';
import { numberOf, twilioPost } from '../support/twilio';

/**
 * Channel health as a person sees it: a number someone re-pointed in Twilio's console is
 * flagged on the Channels page with the foreign URL named, the Dashboard warns about it, and Repair
 * puts it back, on a phone-sized screen.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const ELSEWHERE = 'https://elsewhere.example/sms';

/** The channel's row on the Channels page, by its own button (the call widget lists the number too). */
const rowOf = (page: Page, number: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Check now for ${number}` }) });
/**
 * Waits for the row's health badge to read `expected` as screen readers read it; on failure the
 * message shows what the row (or, without it, the page) said instead.
 */
async function healthIn(page: Page, row: Locator, expected: string) {
  const reads = async () =>
    (await row.count())
      ? ((await row.getByRole('status').first().textContent()) ?? '')
      : `no row: ${await page.locator('body').innerText()}`;
  await expect.poll(reads, { timeout: UI_TIMEOUT_MS }).toBe(`Health: ${expected}`);
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** To the Dashboard through the menu, as a person does on a phone. */
async function toDashboard(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

describe('a drifted channel', () => {
  it('is flagged on the Channels page and the Dashboard, and Repair puts it back', async () => {
    const line = await smsLine();
    const sid = line.twilio.numbers.find((n) => n.phone_number === line.channel.identifier)?.sid;
    if (!sid) throw new Error(`no ${line.channel.identifier} in the emulator account`);
    const number = formatPhoneNumber(line.channel.identifier, 'US');

    const { page, errors, context } = await signedInTab(browser, line.account, {
      path: '/settings/channels',
      viewport: PHONE,
    });
    const row = rowOf(page, number);
    // Never checked: the page's first request for its health has the server check it.
    await healthIn(page, row, 'Healthy');

    // Someone points the number's texts elsewhere in Twilio's console.
    await twilioPost(line.twilio, `/IncomingPhoneNumbers/${sid}.json`, { SmsUrl: ELSEWHERE });
    await row.getByRole('button', { name: `Check now for ${number}` }).click();
    await healthIn(page, row, 'Drifted');
    await seen(row.getByText(ELSEWHERE).first());
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);

    // The details name the field, what it should be and what it is.
    await row.getByRole('button', { name: `Health details for ${number}` }).click();
    const dialog = await seen(page.getByRole('dialog', { name: 'Channel Health' }));
    const problem = dialog.getByRole('region', { name: 'Problems' }).getByRole('listitem').first();
    await seen(problem.getByText('SmsUrl', { exact: true }));
    await seen(problem.getByText(line.smsUrl, { exact: true }));
    await seen(problem.getByText(ELSEWHERE, { exact: true }));
    await seen(dialog.getByRole('region', { name: /^Texts sent since / }));
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), { timeout: UI_TIMEOUT_MS }).toBe(0);

    // The Dashboard warns about it and leads back to the Channels page. On by the app's menu: a page
    // load would start the app again.
    await toDashboard(page);
    await seen(page.getByText(/A phone number needs attention/));
    await seen(page.getByText(`${number}: Drifted`));
    await page.getByRole('link', { name: 'Check and repair in Channels' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/channels');

    const repair = row.getByRole('button', { name: `Repair for ${number}` });
    await repair.click();
    // It asks first, showing the URL that is there now and the one it puts back.
    const question = await seen(page.getByRole('alertdialog', { name: `Repair ${number}?` }));
    await seen(question.getByText(ELSEWHERE, { exact: true }));
    await seen(question.getByText(line.smsUrl, { exact: true }));
    await question.getByRole('button', { name: 'Repair', exact: true }).click();
    await seen(row.getByText('Repaired.'));
    await seen(row.getByText(`SmsUrl set back to ${line.smsUrl}`));
    await healthIn(page, row, 'Healthy');
    expect(await repair.count()).toBe(0);
    expect((await numberOf(line.twilio, sid)).sms_url).toBe(line.smsUrl);

    // Healthy again: the Dashboard says nothing.
    await toDashboard(page);
    await seen(page.getByRole('heading', { name: /^Welcome/ }));
    await seen(page.getByText('Connected Channels'));
    await expect.poll(() => page.getByText(/needs? attention/).count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
