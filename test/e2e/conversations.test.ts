import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, callRoute, signUp, stack } from '../support/api';
import {
  gone,
  launchBrowser,
  openTab,
  PHONE,
  reached,
  seen,
  signedInTab,
  type Tab,
  UI_TIMEOUT_MS,
  web,
} from '../support/browser';
import { endpoints } from '../support/endpoints';
import { withChannel } from '../support/settings';
import { setMessageStepMs, textFromPhone as textThroughEmulator } from '../support/twilio';

const CUSTOMER = '+14155550199';
const CUSTOMER_DISPLAY = '(415) 555-0199';
const SECOND_CUSTOMER = '+12025550142';
const SECOND_CUSTOMER_DISPLAY = '(202) 555-0142';
const THIRD_CUSTOMER = '+13125550177';
const THIRD_CUSTOMER_DISPLAY = '(312) 555-0177';

/** A pattern that finds the text as written. */
const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The phone simulator of the emulator, as a customer with CUSTOMER texting `number`. */
async function openPhone(number: string): Promise<Page> {
  const { page } = await openTab(browser, { viewport: PHONE });
  const query = new URLSearchParams({ phone: CUSTOMER, number });
  await page.goto(`${stack().urls.twilio}/phone?${query}`);
  await seen(page.getByRole('heading', { name: 'Phone simulator' }));
  await expect.poll(() => page.getByLabel('Switchboard number').inputValue()).toBe(number);
  return page;
}

async function textFromPhone(phone: Page, text: string) {
  await phone.getByLabel('Message').fill(text);
  await phone.getByRole('button', { name: 'Send' }).click();
  // This text's own line: an earlier text also reads 'Delivered to Switchboard'.
  const sent = phone.getByRole('log', { name: 'Conversation' }).getByRole('listitem').filter({ hasText: text });
  await seen(sent.getByText('You · Delivered to Switchboard'));
}

/** The id of the account's conversation with a phone, as the list reads it. */
async function conversationWith(owner: Account, phone: string): Promise<string> {
  const list = await callRoute(endpoints.listConversations, { token: owner.tokens.accessToken });
  const id = list.body.data.conversations.find((c) => c.contact.phoneNumber === phone)?.id;
  if (!id) throw new Error(`no conversation with ${phone}`);
  return id;
}

/** Horizontal overflow makes a phone scroll sideways. */
const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('SMS conversations in the browser', () => {
  let account: Account;
  let demoNumber: string;

  beforeAll(async () => {
    account = await signUp({ name: 'Ada Lovelace' });
    const { provider, channel } = await withChannel(account);
    demoNumber = channel.identifier;
    // Slow enough that the thread shows Sending before Delivered; this account only.
    await setMessageStepMs(1_000, provider.accountSid);
  });

  // One signed-in tab of the account for the tests that need no fresh profile: each opens its page
  // anew (a new context would also start the softphone again, the company having a number).
  let signedIn: Tab | undefined;
  async function agentAt(path: string): Promise<Tab> {
    if (!signedIn) signedIn = await signedInTab(browser, account, { path });
    else await signedIn.page.goto(web(path));
    return signedIn;
  }
  afterAll(async () => {
    await signedIn?.context.close();
  });

  // One customer's conversation, told in steps on the same tabs, each building on the one before: as one
  // test it outgrew a fair bound on a busy machine.
  describe('a text from the phone simulator, the reply, and closing the conversation', () => {
    let agent: Tab;
    let phone: Page;
    const thread = () => agent.page.locator('section[aria-labelledby="thread-title"]');
    const messages = () => thread().getByRole('list', { name: 'Messages' });
    const reply = () => messages().getByRole('listitem').filter({ hasText: 'Yes, it ships today.' });

    afterAll(async () => {
      await phone?.context().close();
    });

    it('appears in the list without reload, and opens its thread', async () => {
      agent = await agentAt('/conversations');
      await seen(agent.page.getByText('Showing 0 of 0 open conversations'));
      phone = await openPhone(demoNumber);
      await textFromPhone(phone, 'Hello, is my order ready?');

      const item = agent.page.getByRole('link', {
        name: new RegExp(`${literally(CUSTOMER_DISPLAY).source}.*${literally('Hello, is my order ready?').source}`),
      });
      await seen(item);
      await seen(agent.page.getByText('Showing 1 of 1 open conversation'));
      await item.click();
      await seen(thread().getByRole('heading', { name: CUSTOMER_DISPLAY }));
      await seen(messages().getByText('Hello, is my order ready?'));
      expect(agent.errors).toEqual([]);
    });

    it('a second text appears in the open thread; the reply shows Sending, then Delivered, reaches the phone, and its details say delivered', async () => {
      await textFromPhone(phone, 'It was due on Monday.');
      await seen(messages().getByText('It was due on Monday.'));

      const composer = agent.page.getByRole('textbox', { name: 'Message' });
      await composer.fill('Yes, it ships today.');
      await composer.press('Enter');
      await seen(reply().getByText('Sending'));
      await expect.poll(() => composer.inputValue()).toBe('');
      await seen(phone.getByText('Yes, it ships today.'));
      await seen(reply().getByText('Delivered'));
      await seen(phone.getByText(/Switchboard · Delivered/));

      // Message details says what Twilio said.
      await reply().getByRole('button', { name: 'Message actions' }).click();
      await agent.page.getByRole('menuitem', { name: 'Details' }).click();
      const details = agent.page.getByRole('dialog', { name: 'Message details' });
      await seen(details.getByText('delivered', { exact: true }));
      await agent.page.keyboard.press('Escape');
      await gone(details);
      expect(agent.errors).toEqual([]);
    });

    it('Mark Closed and Mark Open move it between the lists; a reload keeps it open; the dashboard counts it', async () => {
      // Closing deselects it and takes it out of Open; under Closed it can be opened again.
      await thread().getByRole('button', { name: 'Mark Closed' }).click();
      await seen(agent.page.getByText('No conversation selected'));
      await seen(agent.page.getByText('Showing 0 of 0 open conversations'));
      await agent.page.getByRole('button', { name: 'Closed', exact: true }).click();
      await agent.page.getByRole('link', { name: /Yes, it ships today\./ }).click();
      await seen(thread().getByRole('button', { name: 'Mark Closed' }));
      await expect.poll(() => thread().getByRole('button', { name: 'Mark Closed' }).isDisabled()).toBe(true);
      await thread().getByRole('button', { name: 'Mark Open' }).click();
      await seen(agent.page.getByText('No conversation selected'));
      await agent.page.getByRole('button', { name: 'Open', exact: true }).click();
      await seen(agent.page.getByRole('link', { name: /Yes, it ships today\./ }));

      // A reload keeps the conversation open: it is in the address.
      await agent.page.getByRole('link', { name: /Yes, it ships today\./ }).click();
      await agent.page.waitForURL((url) => /^\/conversations\/.+/.test(url.pathname));
      await agent.page.reload();
      await seen(messages().getByText('Yes, it ships today.'));

      // The dashboard counts it.
      await agent.page.goto(web('/dashboard'));
      const counter = agent.page.getByText('Active Conversations', { exact: true }).locator('..');
      // The dev server may still be compiling the dashboard's modules on their first visit.
      await expect.poll(() => counter.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Active Conversations1');
      expect(agent.errors).toEqual([]);
    });
  });

  it('closing Message details gives focus back to the message’s actions button, by Escape or by Close', async () => {
    const customer = '+12025550167';
    await textThroughEmulator({ from: customer, to: demoNumber, body: 'Can I change the delivery address?' });
    const agent = await agentAt(`/conversations/${await conversationWith(account, customer)}`);
    const message = agent.page
      .locator('section[aria-labelledby="thread-title"]')
      .getByRole('listitem')
      .filter({ hasText: 'Can I change the delivery address?' });
    const actions = await seen(message.getByRole('button', { name: 'Message actions' }));
    const details = agent.page.getByRole('dialog', { name: 'Message details' });
    const focused = () => actions.evaluate((el) => el === document.activeElement);

    // From the keyboard: the menu opens on Enter with Details first.
    await actions.focus();
    await agent.page.keyboard.press('Enter');
    await seen(agent.page.getByRole('menuitem', { name: 'Details' }));
    await agent.page.keyboard.press('Enter');
    await seen(details);
    await agent.page.keyboard.press('Escape');
    await gone(details);
    await expect.poll(focused, { timeout: UI_TIMEOUT_MS }).toBe(true);

    // With the mouse, closed by its Close button.
    await actions.click();
    await agent.page.getByRole('menuitem', { name: 'Details' }).click();
    await details.getByRole('button', { name: 'Close' }).first().click();
    await gone(details);
    await expect.poll(focused, { timeout: UI_TIMEOUT_MS }).toBe(true);
    expect(agent.errors).toEqual([]);
  });

  it('choosing a conversation from the list puts the keyboard in its message box', async () => {
    await textThroughEmulator({ from: '+12025550188', to: demoNumber, body: 'Where do I send the return?' });
    const agent = await agentAt('/conversations');
    const item = await seen(agent.page.getByRole('link', { name: /Where do I send the return\?/ }));
    await item.focus();
    await agent.page.keyboard.press('Enter');
    const thread = agent.page.locator('section[aria-labelledby="thread-title"]');
    await seen(thread.getByRole('list', { name: 'Messages' }).getByText('Where do I send the return?'));
    const composer = thread.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => composer.evaluate((el) => el === document.activeElement)).toBe(true);
    await agent.page.keyboard.type('To our warehouse');
    expect(await composer.inputValue()).toBe('To our warehouse');
    expect(agent.errors).toEqual([]);
  });

  it('at 360 px the list and the thread take turns, with a way back, and nothing scrolls sideways', async () => {
    await textThroughEmulator({ from: SECOND_CUSTOMER, to: demoNumber, body: 'Texting from a small screen' });
    const agent = await signedInTab(browser, account, { viewport: PHONE, path: '/conversations' });
    const item = agent.page.getByRole('link', { name: literally(SECOND_CUSTOMER_DISPLAY) });
    await seen(item);
    expect(await overflowsSideways(agent.page)).toBe(false);

    await item.click();
    const thread = agent.page.locator('section[aria-labelledby="thread-title"]');
    await seen(thread.getByRole('heading', { name: SECOND_CUSTOMER_DISPLAY }));
    await gone(agent.page.getByRole('button', { name: 'Both', exact: true }));
    expect(await overflowsSideways(agent.page)).toBe(false);

    await thread.getByRole('link', { name: 'Back to conversations' }).click();
    await reached(agent.page, '/conversations');
    await seen(item);
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  });

  it('at 360 px an open thread gives its messages at least half the screen, its controls on one row', async () => {
    await textThroughEmulator({ from: THIRD_CUSTOMER, to: demoNumber, body: 'Is there room to read this?' });
    const agent = await signedInTab(browser, account, { viewport: PHONE, path: '/conversations' });
    await agent.page.getByRole('link', { name: literally(THIRD_CUSTOMER_DISPLAY) }).click();
    const thread = agent.page.locator('section[aria-labelledby="thread-title"]');
    const messages = thread.getByRole('list', { name: 'Messages' });
    await seen(messages.getByText('Is there room to read this?'));
    // The call widget's corner is part of what the thread must leave room for.
    await seen(agent.page.getByRole('button', { name: 'Open dialer' }));

    // What scrolls the messages, as it stands on the screen before anyone scrolls the page.
    const area = await messages.locator('xpath=..').boundingBox();
    if (!area) throw new Error('the messages have no box');
    const visible = Math.min(area.y + area.height, PHONE.height) - Math.max(area.y, 0);
    expect(visible).toBeGreaterThanOrEqual(PHONE.height / 2);
    // Back, the title and the thread's actions share one row, and the message box is on screen too.
    const back = await thread.getByRole('link', { name: 'Back to conversations' }).boundingBox();
    const actions = await thread.getByRole('button', { name: 'Conversation actions' }).boundingBox();
    expect(back && actions && Math.abs(back.y - actions.y)).toBeLessThan(8);
    const box = await thread.getByRole('textbox', { name: 'Message' }).boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    // The folded actions are one press away, and fold again with Escape.
    await thread.getByRole('button', { name: 'Conversation actions' }).click();
    await seen(thread.getByRole('button', { name: 'Mark Closed' }));
    await thread.getByRole('combobox', { name: 'Assignee' }).focus();
    await agent.page.keyboard.press('Escape');
    await gone(thread.getByRole('button', { name: 'Mark Closed' }));
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  });
});
