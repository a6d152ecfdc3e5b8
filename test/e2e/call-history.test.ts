import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp, stack } from '../support/api';
import { launchBrowser, openTab, PHONE, seen, signedInTab } from '../support/browser';
import { openSocket } from '../support/realtime';
import { withChannel } from '../support/settings';
import { answerCall, hangUpCall, type TwilioAccount, twilioGet } from '../support/twilio';
import { identityOf, routeChannel } from '../support/voice';

/**
 * Calls in the browser: a call placed from the phone simulator to an imported number
 * shows up in Call History with the right status. The softphone is not there yet, so the
 * agent's browser answers through the emulator's control, as the Voice SDK client would.
 */
const CALLER = '+14155550123';
const CALLER_DISPLAY = '(415) 555-0123';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function callFromPhoneSimulator(number: string): Promise<Page> {
  const { page } = await openTab(browser, { viewport: PHONE });
  await page.goto(`${stack().urls.twilio}/phone?${new URLSearchParams({ phone: CALLER, number })}`);
  await seen(page.getByRole('heading', { name: 'Phone simulator' }));
  await expect.poll(() => page.getByLabel('Switchboard number').inputValue()).toBe(number);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  return page;
}

async function callsTo(twilio: TwilioAccount, to: string) {
  const { calls } = await twilioGet<{ calls: { sid: string; status: string }[] }>(
    twilio,
    `/Calls.json?${new URLSearchParams({ To: to })}`,
  );
  return calls;
}

async function openCallHistory(account: Account): Promise<Page> {
  const { page } = await signedInTab(browser, account, { path: '/calls' });
  await seen(page.getByRole('heading', { name: 'Call History' }));
  return page;
}

describe('Call History', () => {
  it('shows a call nobody could take as No answer', async () => {
    const account = await signUp({ name: 'Ada Lovelace' });
    const { channel, twilio } = await withChannel(account);
    const phone = await callFromPhoneSimulator(channel.identifier);
    // Unassigned: the caller is offered voicemail, and hangs up without leaving one.
    await expect
      .poll(async () => (await callsTo(twilio, channel.identifier))[0]?.status, { timeout: 30_000 })
      .toBe('in-progress');
    const [missed] = await callsTo(twilio, channel.identifier);
    await hangUpCall(missed?.sid ?? '');
    await expect.poll(async () => (await callsTo(twilio, channel.identifier))[0]?.status, { timeout: 30_000 }).toBe('completed');
    await seen(phone.getByRole('status').filter({ hasText: /ended/i }));

    const page = await openCallHistory(account);
    const row = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').filter({ hasText: CALLER_DISPLAY });
    await seen(row.getByText('No answer'));
    await seen(row.getByText('Inbound call'));
  });

  it('shows an answered call as Completed once the caller hangs up', async () => {
    const account = await signUp({ name: 'Grace Hopper' });
    const { channel, twilio } = await withChannel(account);
    await routeChannel(account, channel, 'USER', account.user.id);
    // The agent's tab, as its softphone would say it: a phone ready to ring (docs/product.md §10.5).
    const tab = await openSocket(account);
    await tab.phone(true);
    const phone = await callFromPhoneSimulator(channel.identifier);
    await expect.poll(async () => (await callsTo(twilio, channel.identifier))[0]?.status, { timeout: 30_000 }).toBe('ringing');
    const [call] = await callsTo(twilio, channel.identifier);
    if (!call) throw new Error('no call');

    const page = await openCallHistory(account);
    const row = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').filter({ hasText: CALLER_DISPLAY });
    await seen(row.getByText('Ringing'));

    await answerCall(call.sid, `client:${identityOf(account)}`);
    await phone.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(async () => (await callsTo(twilio, channel.identifier))[0]?.status, { timeout: 30_000 }).toBe('completed');

    await page.reload();
    await seen(row.getByText('Completed'));
    await tab.close();
  });
});
