import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, callRoute, signUp } from '../support/api';
import { DESKTOP, gone, launchBrowser, PHONE, seen, signedInTab, tabsClosedAfterEach, web } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';
import { callFromPhone, hangUpCall, textFromPhone } from '../support/twilio';
import { addInboxMember, deviceRegistered, routeChannel } from '../support/voice';

/**
 * What floats over the signed-in pages covers no action: the call widget in its corner (the call
 * button, the Incoming Call panel, the Calling unavailable card) and the phone status banner at the
 * top. Each check compares bounding boxes, as a thumb would: the floating element against the
 * buttons a person needs on that page, with the page scrolled to where those buttons are.
 */
const CUSTOMER = '+14155550199';
const CONTACTS = 6;

let browser: Browser;
let owner: Account;
let conversationPath: string;
let companyNumber: string;
const tabs = tabsClosedAfterEach();

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await signUp({ name: 'Olive Owner' });
  const [{ channel }, inbox] = await Promise.all([withChannel(owner), createInbox(owner, 'Support')]);
  await addInboxMember(owner, inbox.id, owner.user.id);
  await routeChannel(owner, channel, 'INBOX', inbox.id);
  companyNumber = channel.identifier;
  for (let i = 1; i <= CONTACTS; i++) {
    const res = await callRoute(endpoints.createContact, {
      token: owner.tokens.accessToken,
      body: { name: `Contact ${i}`, phoneNumber: `+1415555012${i}`, email: `contact${i}@example.test`, notes: '' },
    });
    if (res.status !== 201) throw new Error(`contact: ${JSON.stringify(res.body)}`);
  }
  await textFromPhone({ from: CUSTOMER, to: channel.identifier, body: 'Is my order ready?' });
  const list = await callRoute(endpoints.listConversations, { token: owner.tokens.accessToken });
  const conversation = list.body.data.conversations[0];
  if (!conversation) throw new Error('the text opened no conversation');
  conversationPath = `/conversations/${conversation.id}`;
});

afterAll(async () => {
  await browser?.close();
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const meet = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The actions (by name) that the floating element covers, among those on screen. */
async function covered(floating: Locator, actions: Locator): Promise<string[]> {
  const over = await (await seen(floating)).boundingBox();
  if (!over) throw new Error('the floating element has no box');
  const hits: string[] = [];
  for (const action of await actions.all()) {
    const box = await action.boundingBox();
    if (box && meet(over, box)) hits.push((await action.getAttribute('aria-label')) ?? (await action.innerText()));
  }
  return hits;
}

/** Every button, link and field of the page's content. */
const pageActions = (page: Page) =>
  page.locator('main').locator('button:visible, a:visible, input:visible, select:visible, textarea:visible');

const toBottom = (page: Page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

/** A signed-in tab opened at `path`: the page a check starts on is the app's first load, not a second one. */
async function signedIn(options: BrowserContextOptions & { path: string; tokenFails?: boolean; signallingSilent?: boolean }) {
  const { tokenFails, signallingSilent, ...context } = options;
  const tab = await signedInTab(browser, owner, {
    ...context,
    beforeLoad: async ({ page, context }) => {
      // A network that loses the voice token request: calling cannot start.
      if (tokenFails) await page.route(`**${endpoints.voiceToken.path}`, (route) => route.abort('internetdisconnected'));
      // Signalling that never answers: the device stays 'Connecting…', and its banner stays on screen to be measured.
      if (signallingSilent) await context.routeWebSocket(/\/signal/, () => {});
    },
  });
  tabs.push(tab);
  return tab.page;
}

const rowActions = (page: Page) => page.getByRole('table').getByRole('button', { name: /^(Edit|Delete) / });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' }).or(page.getByRole('button', { name: 'Send' }));

describe('at 360 px', () => {
  it('the status banner covers nothing at the top, nor the call button the contacts or the composer', async () => {
    const page = await signedIn({ viewport: PHONE, signallingSilent: true, path: '/settings/team' });
    await seen(page.getByRole('button', { name: 'Invite Member' }));
    const status = page.getByRole('status', { name: 'Phone status' });
    await seen(status.getByText('Connecting to the phone service...'));
    // The box as drawn: on a phone it says it in a few words, and leaves the logo clear.
    const banner = status.locator('> div');
    expect(await covered(banner, pageActions(page))).toEqual([]);
    expect(await covered(banner, page.getByRole('button', { name: /Open menu|Invite Member/ }))).toEqual([]);
    expect(await covered(banner, page.getByText('Switchboard', { exact: true }).filter({ visible: true }))).toEqual([]);

    const callButton = page.getByRole('button', { name: 'Open dialer' });
    await page.goto(web('/contacts'));
    await seen(page.getByText(`Contact ${CONTACTS}`));
    await toBottom(page);
    expect(await rowActions(page).count()).toBe(2 * (CONTACTS + 1));
    expect(await covered(callButton, rowActions(page))).toEqual([]);
    // The contact book itself fits: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.goto(web(conversationPath));
    await seen(page.getByRole('button', { name: 'Send' }));
    await toBottom(page);
    expect(await covered(callButton, composer(page))).toEqual([]);
  });

  it('the Incoming Call panel leaves the composer and Send free', async () => {
    const page = await signedIn({ viewport: PHONE, path: conversationPath });
    await seen(page.getByRole('button', { name: 'Send' }));
    await deviceRegistered(owner);
    const call = await callFromPhone({ from: CUSTOMER, to: companyNumber });
    const ringing = page.getByRole('region', { name: 'Incoming Call' });
    await seen(ringing.getByRole('button', { name: 'Answer' }));
    await toBottom(page);
    expect(await covered(ringing, composer(page))).toEqual([]);
    expect(await covered(ringing, pageActions(page))).toEqual([]);
    await hangUpCall(call.sid);
    await gone(ringing);
  });

  it('the Calling unavailable card covers neither the contacts nor the composer, and closes; the call button brings it back', async () => {
    const page = await signedIn({ viewport: PHONE, tokenFails: true, path: '/contacts' });
    const card = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Calling unavailable' }) });
    await seen(page.getByText(`Contact ${CONTACTS}`));
    await seen(card);
    await toBottom(page);
    expect(await covered(card, rowActions(page))).toEqual([]);

    await page.goto(web(conversationPath));
    await seen(page.getByRole('button', { name: 'Send' }));
    await toBottom(page);
    expect(await covered(card, composer(page))).toEqual([]);

    await card.getByRole('button', { name: 'Close' }).click();
    await gone(card);
    const reopen = page.getByRole('button', { name: 'Calling unavailable' });
    await expect.poll(() => reopen.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await covered(reopen, composer(page))).toEqual([]);
    await reopen.click();
    await seen(card.getByRole('button', { name: 'Refresh' }));
  });
});

describe('at 1280 px', () => {
  it('the status banner clears the page header, and the call button the last contact', async () => {
    const page = await signedIn({ viewport: DESKTOP, signallingSilent: true, path: '/settings/team' });
    const invite = await seen(page.getByRole('button', { name: 'Invite Member' }));
    const banner = page.getByRole('status', { name: 'Phone status' }).getByText('Connecting to the phone service...');
    expect(await covered(banner, invite)).toEqual([]);
    expect(await covered(banner, pageActions(page))).toEqual([]);

    await page.goto(web('/contacts'));
    await seen(page.getByText(`Contact ${CONTACTS}`));
    await toBottom(page);
    expect(await covered(page.getByRole('button', { name: 'Open dialer' }), rowActions(page))).toEqual([]);
  });
});

describe('at 1366×850', () => {
  it('an incoming call floats over the page: the Conversations card keeps its size, and Answer is reachable', async () => {
    const page = await signedIn({ viewport: { width: 1366, height: 850 }, path: conversationPath });
    const send = await seen(page.getByRole('button', { name: 'Send' }));
    const list = page.getByRole('region', { name: 'Conversation list' });
    // Measured once the widget's corner is there: the page keeps room for the call button, no more.
    await deviceRegistered(owner);
    await seen(page.getByRole('button', { name: 'Open dialer' }));
    const before = await list.boundingBox();
    const sendBefore = await send.boundingBox();
    if (!before || !sendBefore) throw new Error('the conversation list or Send has no box');

    const call = await callFromPhone({ from: CUSTOMER, to: companyNumber });
    const ringing = page.getByRole('region', { name: 'Incoming Call' });
    const answer = await seen(ringing.getByRole('button', { name: 'Answer' }));
    // The panel rose from the corner over the page; the page did not give way to it.
    expect(await list.boundingBox()).toEqual(before);
    expect(await send.boundingBox()).toEqual(sendBefore);
    const panel = await ringing.boundingBox();
    if (!panel) throw new Error('the Incoming Call panel has no box');
    expect(panel.y).toBeLessThan(before.y + before.height);
    // Over the page, not under it: a click on Answer reaches Answer.
    const onTop = await answer.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return hit !== null && el.contains(hit);
    });
    expect(onTop).toBe(true);
    await hangUpCall(call.sid);
    await gone(ringing);
    expect(await list.boundingBox()).toEqual(before);
  });
});
