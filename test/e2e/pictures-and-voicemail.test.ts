import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { signUp, stack } from '../support/api';
import { launchBrowser, PHONE, seen, signedInTab, tabsClosedAfterEach, UI_TIMEOUT_MS } from '../support/browser';
import { withChannel } from '../support/settings';
import { newPhone, smsLine } from '../support/sms';
import { callFromPhone, hangUpCall, speakOnCall } from '../support/twilio';
import { listCalls } from '../support/voice';

/**
 * Pictures in texts and voicemail in the browser: a customer's picture, texted through the Twilio emulator, shows in the
 * thread (read with the agent's token, not a plain `<img src>`); a caller nobody answered leaves a
 * voicemail, which plays in Call History from the native player.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
const tabs = tabsClosedAfterEach();

/** A phone texts the number through the emulator, as a handset would: Twilio stores the media and posts the webhook. */
async function mmsFromPhone(text: { from: string; to: string; body: string; media: { contentType: string }[] }) {
  const res = await fetch(`${stack().urls.twilio}/_emulator/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(text),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const answer = (await res.json()) as { webhook: { status: number | null } | null };
  expect(answer.webhook?.status).toBe(200);
}

/** What the page's element says about itself, once it has loaded what it shows. */
const pictureLoaded = (page: Page, name: string) =>
  page
    .getByRole('img', { name, exact: true })
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

describe('pictures in texts', () => {
  it('shows a texted picture in the thread, full-size in a dialog, and "Photo" in the list', async () => {
    const line = await smsLine();
    const phone = newPhone();
    const number = formatPhoneNumber(phone, 'US');
    await mmsFromPhone({ from: phone, to: line.channel.identifier, body: '', media: [{ contentType: 'image/png' }] });

    const tab = await signedInTab(browser, line.account, { path: '/conversations', viewport: PHONE });
    tabs.push(tab);
    const { page } = tab;
    const row = page.getByRole('region', { name: 'Conversation list' }).getByRole('link').filter({ hasText: number });
    await seen(row.getByText('Photo', { exact: true }));
    await row.click();
    const thread = page.locator('section[aria-labelledby="thread-title"]');
    const alt = `Photo from ${number}`;
    const picture = await seen(thread.getByRole('img', { name: alt, exact: true }));
    // The bytes came through the API with the token, as an object URL, and the browser decoded them.
    expect(await picture.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => pictureLoaded(page, alt), { timeout: UI_TIMEOUT_MS }).toBe(true);
    const box = await picture.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(0);
    expect(box?.width ?? 0).toBeLessThanOrEqual(240);
    expect(box?.height ?? 0).toBeLessThanOrEqual(240);

    // Enter on the picture opens it full-size; Escape closes it.
    await thread.getByRole('button', { name: alt }).focus();
    await page.keyboard.press('Enter');
    const dialog = await seen(page.getByRole('dialog', { name: alt }));
    await seen(dialog.getByRole('img', { name: alt }));
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
  });
});

describe('voicemail', () => {
  it('plays a voicemail left by a caller nobody answered, from Call History', async () => {
    const account = await signUp({ name: 'Ada Lovelace' });
    const { channel } = await withChannel(account);
    const caller = newPhone();
    const number = formatPhoneNumber(caller, 'US');
    // Nobody takes the number's calls (unassigned): the caller hears the greeting and is recorded until they hang up.
    const call = await callFromPhone({ from: caller, to: channel.identifier });
    await speakOnCall(call.sid, 7);
    await hangUpCall(call.sid);
    await expect
      .poll(
        async () =>
          (await listCalls(account, { voicemail: 'true' })).body.data.calls.some((c) => c.contact.phoneNumber === caller),
        { timeout: UI_TIMEOUT_MS },
      )
      .toBe(true);

    const tab = await signedInTab(browser, account, { path: '/calls', viewport: PHONE });
    tabs.push(tab);
    const { page } = tab;
    await seen(page.getByRole('heading', { name: 'Call History' }));
    await page.getByRole('checkbox', { name: 'Voicemail' }).check();
    await expect.poll(() => new URL(page.url()).searchParams.get('voicemail')).toBe('true');
    const row = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').filter({ hasText: number });
    await seen(row.getByText('New', { exact: true }));

    await row.getByRole('button', { name: /^Play voicemail/ }).click();
    const audio = await seen(row.getByLabel(`Voicemail from ${number}, 0:07`, { exact: true }));
    expect(await audio.evaluate((el) => el.tagName)).toBe('AUDIO');
    expect(await audio.getAttribute('src')).toMatch(/^blob:/);
    // The browser read the recording: it knows its length and can play it.
    await expect
      .poll(
        () =>
          audio.evaluate(
            (el: HTMLAudioElement) => el.readyState >= HTMLMediaElement.HAVE_METADATA && Math.round(el.duration) === 7,
          ),
        {
          timeout: UI_TIMEOUT_MS,
        },
      )
      .toBe(true);
    expect(await audio.evaluate((el: HTMLAudioElement) => el.error)).toBeNull();
    // Played: listened for the company, so the mark goes.
    await expect.poll(() => row.getByText('New', { exact: true }).count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
  });
});
