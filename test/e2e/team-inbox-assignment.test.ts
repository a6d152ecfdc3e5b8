import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import type { Account } from '../support/api';
import {
  expectAccessible,
  launchBrowser,
  PHONE,
  seen,
  signedInTab,
  tabsClosedAfterEach,
  UI_TIMEOUT_MS,
} from '../support/browser';
import { newPhone, type SmsLine, smsLine, textIn } from '../support/sms';
import { addTeamMember } from '../support/team';
import { listPage } from '../support/team-inbox';

/**
 * Assignment (issue 27) as the team sees it: an agent assigns a conversation to a colleague from the
 * thread's picker, from the keyboard; the list shows the owner's initial, and the colleague finds it
 * under Mine, live, in their own tab; on a phone-sized screen, in both themes.
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
});

/** A signed-in tab whose socket is live (its first frame arrived), so later changes reach it as events. */
async function liveTab(account: Account, path: string) {
  let live: Promise<unknown> = Promise.resolve();
  const tab = await signedInTab(browser, account, {
    path,
    viewport: PHONE,
    beforeLoad: (t) => {
      live = t.page.waitForEvent('websocket', (ws) => ws.url().includes('/ws')).then((ws) => ws.waitForEvent('framereceived'));
    },
  });
  tabs.push(tab);
  await live;
  return tab;
}

const rowOf = (page: Page, number: string) =>
  page.getByRole('region', { name: 'Conversation list' }).getByRole('link').filter({ hasText: number });

describe('assignment from the thread', () => {
  it("assigns a conversation to a colleague with the keyboard; it shows in the list and in the colleague's Mine", async () => {
    const phone = newPhone();
    const number = formatPhoneNumber(phone, 'US');
    expect((await textIn(line, { from: phone, body: 'Who is looking after my order?' })).status).toBe(200);
    const colleague = await liveTab(grace, '/conversations?assignee=me');
    await seen(colleague.page.getByRole('button', { name: 'Mine', pressed: true }));
    expect(await rowOf(colleague.page, number).count()).toBe(0);

    const { page } = await liveTab(line.account, '/conversations?assignee=unassigned');
    await rowOf(page, number).click();
    const picker = page.getByRole('combobox', { name: 'Assignee' });
    await seen(picker);
    expect(await picker.inputValue()).toBe('');
    await expectAccessible(page, 'a thread with the assignee picker at 360 px');

    // A native select: the keyboard chooses (type-ahead on G picks Grace Hopper), the change is sent once.
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
    await expectAccessible(colleague.page, "the colleague's Mine at 360 px");

    // Unassigned again: it leaves her Mine.
    await picker.selectOption({ label: 'Unassigned' });
    await expect.poll(() => mine.count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
  });
});
