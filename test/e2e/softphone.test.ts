import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from '../support/api';
import { expectAccessible, launchBrowser, openTab, PHONE, seen, signInThroughForm, type Tab } from '../support/browser';
import { createInbox, withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import type { TwilioAccount } from '../support/twilio';
import { addInboxMember, routeChannel } from '../support/voice';

/**
 * The floating call widget in Chromium with the real Voice SDK. One company: an owner and an agent in
 * the Support inbox that answers the company's number, and a colleague in no inbox (no caller ID);
 * and a company without a provider.
 */
const NO_CALLER_IDS = 'No phone numbers available. You must be assigned to an inbox with a phone number to make calls.';

let browser: Browser;
let owner: Account;
let agent: Account;
let outsider: Account;
let noProvider: Account;
let line: { channel: { identifier: string }; twilio: TwilioAccount };
const tabs: Tab[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  [owner, noProvider] = await Promise.all([signUp({ name: 'Olive Owner' }), signUp({ name: 'Nadia Noprovider' })]);
  const [connected, inbox, colleague, colleague2] = await Promise.all([
    withChannel(owner),
    createInbox(owner, 'Support'),
    addTeamMember(owner, { name: 'Alan Agent' }),
    addTeamMember(owner, { name: 'Oscar Outsider' }),
  ]);
  agent = colleague;
  outsider = colleague2;
  line = connected;
  await Promise.all([addInboxMember(owner, inbox.id, owner.user.id), addInboxMember(owner, inbox.id, agent.user.id)]);
  await routeChannel(owner, connected.channel, 'INBOX', inbox.id);
});

afterAll(async () => {
  await browser?.close();
});

/** A signed-in tab of its own (own storage, so each agent is one person). */
async function signedIn(account: Account, options: Parameters<typeof openTab>[1] = {}): Promise<Page> {
  const tab = await openTab(browser, { ignoreHTTPSErrors: true, ...options });
  tabs.push(tab);
  await signInThroughForm(tab.page, account.email, account.password);
  return tab.page;
}

const openDialer = async (page: Page) => {
  await (await seen(page.getByRole('button', { name: 'Open dialer' }))).click();
  return seen(page.getByRole('dialog', { name: 'Make a call' }));
};

describe('the floating call widget', () => {
  it('stays hidden, without loading the Voice SDK, when the company has no provider', async () => {
    const tab = await openTab(browser);
    tabs.push(tab);
    const { page } = tab;
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(request.url()));
    const token = page.waitForResponse((res) => res.url().endsWith('/api/v1/voice/token'));
    await signInThroughForm(page, noProvider.email, noProvider.password);
    const answer = await token;
    expect(answer.status()).toBe(404);
    expect((await answer.json()).error.code).toBe('PROVIDER_NOT_FOUND');
    await seen(page.getByRole('heading', { name: /Welcome/ }));
    expect(await page.getByRole('button', { name: 'Open dialer' }).count()).toBe(0);
    expect(await page.getByRole('status', { name: 'Phone status' }).count()).toBe(0);
    expect(scripts.filter((url) => url.includes('voice-sdk'))).toEqual([]);
    expect(tab.errors).toEqual([]);
  });

  it('validates the number as SPEC words it, in an accessible dialer that fits a phone', async () => {
    const page = await signedIn(agent, { viewport: PHONE });
    const dialer = await openDialer(page);
    await dialer.getByLabel('Country').selectOption('GB');
    const number = dialer.getByLabel('Phone number');
    await number.pressSequentially('12');
    const callerId = dialer.getByLabel('Caller ID');
    await expect.poll(() => callerId.inputValue()).toBe(line.channel.identifier);
    await dialer.getByRole('button', { name: 'Call' }).click();
    await seen(dialer.getByText('Please enter a valid phone number'));

    await number.fill('');
    await number.pressSequentially('0200000000');
    await dialer.getByRole('button', { name: 'Call' }).click();
    await seen(dialer.getByText('Invalid phone number for United Kingdom'));

    await number.fill('');
    await seen(dialer.getByText('Please enter a phone number'));
    expect(await dialer.getByRole('button', { name: 'Call' }).isDisabled()).toBe(true);

    await number.pressSequentially('02079460958');
    expect(await number.inputValue()).toBe('020 7946 0958');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const box = await dialer.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await expectAccessible(page, 'the dialer');

    await page.keyboard.press('Escape');
    await expect.poll(() => dialer.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open dialer');
  });

  it('tells a user in no inbox that there is no number to call from', async () => {
    const page = await signedIn(outsider);
    const dialer = await openDialer(page);
    await seen(dialer.getByText(NO_CALLER_IDS));
    expect(await dialer.getByRole('button', { name: 'Call' }).isDisabled()).toBe(true);
  });
});
