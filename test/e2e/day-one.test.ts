import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../shared/contract/settings';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { type Account, callRoute, signUp, stack } from '../support/api';
import { launchBrowser, openTab, PHONE, seen, signedInTab, tabsClosedAfterEach, UI_TIMEOUT_MS } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { withChannel } from '../support/settings';
import { newPhone } from '../support/sms';
import { callFromPhone, hangUpCall, type TwilioAccount, twilioGet } from '../support/twilio';
import { identityOf, routeChannel } from '../support/voice';

/**
 * A team's first day (docs/product.md: New conversation, Pictures out): from Contacts, text a
 * customer who never texted — words and a picture — and the customer's phone gets both; then, from
 * Call History, call back a caller nobody answered, through the softphone.
 */
const WAIT = { timeout: UI_TIMEOUT_MS } as const;

/** A 2×2 PNG: small, but a picture every decoder reads. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
const tabs = tabsClosedAfterEach();

beforeAll(async () => {
  browser = await launchBrowser({ fakeMicrophone: true });
});
afterAll(async () => {
  await browser?.close();
});

async function company(): Promise<{ owner: Account; channel: Channel; twilio: TwilioAccount }> {
  const owner = await signUp({ name: 'Olive Owner' });
  const { channel, twilio } = await withChannel(owner);
  return { owner, channel, twilio };
}

/** The customer's phone, as the phone simulator shows it: the thread with the company's number. */
async function customerPhone(phone: string, number: string): Promise<Page> {
  const { page } = await openTab(browser, { viewport: PHONE });
  await page.goto(`${stack().urls.twilio}/phone?${new URLSearchParams({ phone, number })}`);
  await seen(page.getByRole('heading', { name: 'Phone simulator' }));
  return page;
}

describe('day one', () => {
  it('texts a contact who never texted, words and a picture, from Contacts; the phone gets both', async () => {
    const { owner, channel } = await company();
    const customer = newPhone();
    const created = await callRoute(endpoints.createContact, {
      token: owner.tokens.accessToken,
      body: { name: 'Carmen Customer', phoneNumber: customer },
    });
    expect(created.status).toBe(201);

    const tab = await signedInTab(browser, owner, { path: '/contacts' });
    tabs.push(tab);
    const { page } = tab;
    await (await seen(page.getByRole('link', { name: 'Text Carmen Customer' }))).click();
    const dialog = await seen(page.getByRole('dialog', { name: 'New message' }));
    await dialog.getByRole('textbox', { name: 'Message' }).fill('Hello Carmen, here is your receipt.');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      dialog.getByRole('button', { name: 'Attach pictures' }).click(),
    ]);
    await chooser.setFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await seen(dialog.getByRole('img', { name: 'receipt.png' }));
    const send = dialog.getByRole('button', { name: 'Send' });
    await expect.poll(() => send.isEnabled(), WAIT).toBe(true);
    await send.click();

    // The thread opens with the text and the picture as sent.
    const thread = page.locator('section[aria-labelledby="thread-title"]');
    await seen(thread.getByText('Hello Carmen, here is your receipt.'));
    await seen(thread.getByRole('img', { name: /^Photo sent to / }));

    const phone = await customerPhone(customer, channel.identifier);
    const received = phone.getByRole('log', { name: 'Conversation' });
    await seen(received.getByText('Hello Carmen, here is your receipt.'));
    const picture = await seen(received.getByRole('img'));
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 2), WAIT).toBe(true);
  });

  it('calls back a caller nobody answered, from Call History', async () => {
    const { owner, channel, twilio } = await company();
    await routeChannel(owner, channel, 'USER', owner.user.id);
    const caller = newPhone();
    // The owner's number rings while nobody has the app open: the caller gives up.
    const call = await callFromPhone({ from: caller, to: channel.identifier });
    await hangUpCall(call.sid);

    const tab = await signedInTab(browser, owner, { path: '/calls', permissions: ['microphone'] });
    tabs.push(tab);
    const { page } = tab;
    const identity = identityOf(owner);
    await expect
      .poll(async () => (await (await fetch(`${stack().urls.twilio}/`)).text()).includes(`${identity} (1 device)`), WAIT)
      .toBe(true);
    const number = formatPhoneNumber(caller, 'US');
    const row = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').filter({ hasText: number });
    await (await seen(row.getByRole('button', { name: `Call back ${number}` }))).click();

    await seen(page.getByRole('region', { name: 'Active Call' }).getByText('Calling...'));
    const ringing = async () => {
      const { calls } = await twilioGet<{ calls: { sid: string; from: string; parent_call_sid: string | null }[] }>(
        twilio,
        `/Calls.json?${new URLSearchParams({ To: caller, Status: 'ringing' })}`,
      );
      // The leg to the caller, from the number they called.
      return calls.find((c) => c.parent_call_sid)?.from;
    };
    await expect.poll(ringing, WAIT).toBe(channel.identifier);
  });
});
