import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketPath } from '../../shared/contract/realtime-events';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import type { Account } from '../support/api';
import { launchBrowser, PHONE, reached, seen, signedInTab, tabsClosedAfterEach, UI_TIMEOUT_MS, web } from '../support/browser';
import { CAPTURE_NOTIFICATIONS, clickFirstNotification, hideTab, shownNotifications } from '../support/notifications';
import { newPhone, type SmsLine, sendText, smsLine, textIn } from '../support/sms';
import { addTeamMember } from '../support/team';
import { listPage, markRead, shareInbox, unreadOf, unreadSummary } from '../support/team-inbox';

/**
 * The team inbox as an agent sees it: what they have not read in bold with its count, in the
 * nav and the tab title; opening it marks it read; an internal note in the thread, shown apart from the
 * texts; a desktop notification for a text that arrives while the tab is in the background; and
 * assigning a conversation from the thread.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
const tabs = tabsClosedAfterEach();

let line: SmsLine;
let grace: Account;
beforeAll(async () => {
  line = await smsLine();
  grace = await addTeamMember(line.account, { name: 'Grace Hopper' });
  // Both see the number's conversations (docs/product.md: Who sees what).
  await shareInbox(line.account, line.channel, [line.account, grace]);
});

const inbound = async (from: string, body: string) => {
  const answer = await textIn(line, { from, body });
  expect(answer.status).toBe(200);
};

/**
 * A signed-in tab whose socket is live (its first frame, the presence snapshot, arrived): texts sent
 * after this reach it as events, not only at the next read.
 */
async function liveTab(account: Account, options: Parameters<typeof signedInTab>[2] = {}) {
  let live: Promise<unknown> = Promise.resolve();
  const tab = await signedInTab(browser, account, {
    ...options,
    beforeLoad: async (t) => {
      live = t.page
        .waitForEvent('websocket', (ws) => ws.url().includes(socketPath(account.company.id)))
        .then((ws) => ws.waitForEvent('framereceived'));
      await options.beforeLoad?.(t);
    },
  });
  tabs.push(tab);
  await live;
  return tab;
}

/** The list's row of a conversation, by the contact's number as shown. */
const rowOf = (page: Page, number: string) =>
  page.getByRole('region', { name: 'Conversation list' }).getByRole('link').filter({ hasText: number });

describe('unread conversations and notes', () => {
  it('shows an unread conversation in bold with its count, in the nav and the title, and reads it when opened', async () => {
    const phone = newPhone();
    const number = formatPhoneNumber(phone, 'US');
    const { page } = await liveTab(line.account, { path: '/conversations' });
    await seen(page.getByRole('heading', { name: 'Conversations', level: 1 }));

    await inbound(phone, 'Where is my parcel?');
    await inbound(phone, 'It was due on Monday');
    const row = rowOf(page, number);
    await seen(row.getByText('2 unread'));
    expect(await row.getByText(number).evaluate((el) => getComputedStyle(el).fontWeight)).toBe('700');
    await expect.poll(() => page.title(), { timeout: UI_TIMEOUT_MS }).toBe('(1) Conversations · Switchboard');
    await seen(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations 1 unread' }));

    // The title's count follows to another page.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Contacts/ })
      .click();
    await expect.poll(() => page.title(), { timeout: UI_TIMEOUT_MS }).toBe('(1) Contacts · Switchboard');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Conversations/ })
      .click();

    await page.setViewportSize(PHONE);
    await seen(row.getByText('2 unread'));

    // Opened in a visible tab: read, for this agent only.
    await row.click();
    await seen(page.getByRole('heading', { name: number, level: 2 }));
    await expect.poll(() => page.title(), { timeout: UI_TIMEOUT_MS }).toBe('Conversations · Switchboard');
    await expect.poll(async () => (await unreadSummary(line.account)).count, { timeout: UI_TIMEOUT_MS }).toBe(0);
    expect((await unreadSummary(grace)).count).toBe(1);
  });

  it('writes an internal note from the Note switch: a card apart from the texts, and the mentioned colleague has it unread', async () => {
    const phone = newPhone();
    const number = formatPhoneNumber(phone, 'US');
    await inbound(phone, 'Can someone call me back?');
    // Grace has read it: the note's mention is what makes it unread for her again.
    const conversationId = await idOf(phone);
    expect((await markRead(grace, conversationId)).status).toBe(200);
    const { page } = await liveTab(line.account, { path: '/conversations', viewport: PHONE });
    await rowOf(page, number).click();
    const thread = page.locator('section[aria-labelledby="thread-title"]');
    await seen(thread.getByText('Can someone call me back?'));

    // The switch is a radio group: the arrow key moves to Note.
    await thread.getByRole('radio', { name: 'Reply' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await thread.getByRole('radio', { name: 'Note' }).isChecked()).toBe(true);
    const box = thread.getByRole('textbox', { name: 'Internal note' });
    expect(await box.getAttribute('placeholder')).toBe('Write an internal note… @mention a teammate');
    await box.fill('Tried twice, no answer. @Grace Hopper can you try after 5?');
    await box.press('Enter');

    const card = await seen(thread.getByRole('listitem', { name: 'Internal note by You' }));
    await seen(card.getByText('Internal note', { exact: true }));
    await seen(card.locator('mark', { hasText: '@Grace Hopper' }));
    await expect.poll(() => box.inputValue()).toBe('');
    await expect.poll(() => unreadOf(grace, conversationId), { timeout: UI_TIMEOUT_MS }).toBe(1);
    expect(await unreadOf(line.account, conversationId)).toBe(0);
  });
});

describe('desktop notifications', () => {
  it('after the opt-in, a text arriving in a hidden tab shows one; clicking it opens the conversation; none while visible or for replies', async () => {
    const phone = newPhone();
    const number = formatPhoneNumber(phone, 'US');
    const tab = await liveTab(line.account, {
      path: '/dashboard',
      beforeLoad: ({ context }) => context.addInitScript(CAPTURE_NOTIFICATIONS),
    });
    const { page, context } = tab;

    // Never asked on load: the person opts in.
    const optIn = await seen(page.getByRole('button', { name: 'Turn on desktop notifications' }));
    await context.grantPermissions(['notifications'], { origin: new URL(web()).origin });
    await optIn.click();
    await seen(page.getByText('Desktop notifications on'));

    // Visible: nothing.
    await inbound(phone, 'First question');
    await seen(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Conversations \d+ unread$/ }));
    expect(await shownNotifications(page)).toEqual([]);

    await hideTab(page, true);
    await inbound(phone, 'Parcel arrived damaged\nPhotos to follow');
    await expect
      .poll(() => shownNotifications(page), { timeout: UI_TIMEOUT_MS })
      .toEqual([{ title: number, body: 'Parcel arrived damaged' }]);

    // The person's own reply (from another of their tabs) tells nothing.
    const conversationId = await idOf(phone);
    expect((await sendText(line.account, conversationId, 'Sorry to hear that')).status).toBe(201);
    await inbound(phone, 'Thanks');
    await expect.poll(async () => (await shownNotifications(page)).length, { timeout: UI_TIMEOUT_MS }).toBe(2);
    expect((await shownNotifications(page)).map((n) => n.body)).toEqual(['Parcel arrived damaged', 'Thanks']);

    // Clicking the notification brings the tab to that conversation.
    await clickFirstNotification(page);
    await reached(page, `/conversations/${conversationId}`);
    await seen(page.getByRole('heading', { name: number, level: 2 }));
    expect(tab.errors).toEqual([]);
  });
});

/** The id of the owner's conversation with a phone. */
async function idOf(phone: string): Promise<string> {
  const list = await listPage(line.account, { limit: 100 });
  const found = list.conversations.find((c) => c.contact.phoneNumber === phone);
  if (!found) throw new Error(`no conversation with ${phone}`);
  return found.id;
}

/**
 * Assignment: an agent assigns a conversation to a colleague from the thread's picker, from the
 * keyboard; the list shows the owner's initial, and the colleague finds it under Mine, live, in their
 * own tab; on a phone-sized screen. Last in the file: its conversation stays unread for the others.
 */
describe('assignment from the thread', () => {
  it("assigns a conversation to a colleague with the keyboard; it shows in the list and in the colleague's Mine", async () => {
    const phone = newPhone();
    const number = formatPhoneNumber(phone, 'US');
    expect((await textIn(line, { from: phone, body: 'Who is looking after my order?' })).status).toBe(200);
    const colleague = await liveTab(grace, { path: '/conversations?assignee=me', viewport: PHONE });
    await seen(colleague.page.getByRole('button', { name: 'Mine', pressed: true }));
    expect(await rowOf(colleague.page, number).count()).toBe(0);

    const { page } = await liveTab(line.account, { path: '/conversations?assignee=unassigned', viewport: PHONE });
    await rowOf(page, number).click();
    // On a phone the thread's actions are folded behind one button.
    await page.getByRole('button', { name: 'Conversation actions' }).click();
    const picker = page.getByRole('combobox', { name: 'Assignee' });
    await seen(picker);
    expect(await picker.inputValue()).toBe('');

    // A native select: the keyboard chooses (type-ahead on G picks Grace Hopper), the change is sent once.
    // The members load after the thread: type-ahead finds Grace only once her option is there.
    await picker.locator('option', { hasText: 'Grace Hopper' }).waitFor({ state: 'attached' });
    await picker.focus();
    await picker.press('G');
    await expect.poll(() => picker.isEnabled(), { timeout: UI_TIMEOUT_MS }).toBe(true);
    expect(await picker.locator('option:checked').textContent()).toBe('Grace Hopper');
    await expect
      .poll(
        async () => (await listPage(line.account, { assignee: grace.user.id })).conversations.map((c) => c.contact.phoneNumber),
        {
          timeout: UI_TIMEOUT_MS,
        },
      )
      .toContain(phone);

    // The colleague's Mine has it at once (the socket's conversation_assigned), with her initial.
    const mine = rowOf(colleague.page, number);
    await seen(mine);
    await seen(mine.getByTitle('Assigned to Grace Hopper'));

    // Unassigned again: it leaves her Mine.
    await picker.selectOption({ label: 'Unassigned' });
    await expect.poll(() => mine.count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
  });
});
