import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketPath } from '../../shared/contract/realtime-events';
import type { Channel } from '../../shared/contract/settings';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { callRoute } from '../support/api';
import { launchBrowser, seen, signedInTab, tabsClosedAfterEach, UI_TIMEOUT_MS, web } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { CAPTURE_NOTIFICATIONS, hideTab, shownNotifications } from '../support/notifications';
import { createInbox } from '../support/settings';
import { newPhone, type SmsLine, smsLine, textIn } from '../support/sms';
import { addTeamMember } from '../support/team';
import { unreadSummary } from '../support/team-inbox';
import { numbersByKind } from '../support/twilio';
import { addInboxMember, routeChannel } from '../support/voice';

/**
 * Who sees what, in an agent's tab (docs/product.md: Who sees what): Grace belongs to the Sales inbox
 * only. Texts to the Support inbox's number never reach her tab: not in her list, not in her unread
 * badge or tab title, and no desktop notification; texts to Sales' number do all three.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
const tabs = tabsClosedAfterEach();

/** The list's row of a conversation, by the contact's number as shown. */
const rowOf = (page: Page, number: string) =>
  page.getByRole('region', { name: 'Conversation list' }).getByRole('link').filter({ hasText: number });

describe('an agent of one inbox', () => {
  it('hears, lists and counts only her inbox’s texts; the other inbox’s never reach her tab', async () => {
    // Support's number is the line's; Sales' is the account's SMS-only number.
    const support: SmsLine = await smsLine();
    const owner = support.account;
    const { smsOnly } = numbersByKind(support.twilio);
    const imported = await callRoute(endpoints.importChannels, {
      params: { id: support.provider.id },
      token: owner.tokens.accessToken,
      body: { numbers: [{ sid: smsOnly.sid, phoneNumber: smsOnly.phone_number, capabilities: { voice: false, sms: true } }] },
    });
    const sales: SmsLine = { ...support, channel: imported.body.data.channels[0] as Channel };
    const grace = await addTeamMember(owner, { name: 'Grace Hopper' });
    const [salesInbox, supportInbox] = [await createInbox(owner, 'Sales'), await createInbox(owner, 'Support')];
    await addInboxMember(owner, salesInbox.id, grace.user.id);
    await routeChannel(owner, sales.channel, 'INBOX', salesInbox.id);
    await routeChannel(owner, support.channel, 'INBOX', supportInbox.id);

    // Grace's tab, its socket live, notifications allowed, then sent to the background.
    let live: Promise<unknown> = Promise.resolve();
    const tab = await signedInTab(browser, grace, {
      path: '/conversations',
      beforeLoad: async ({ page, context }) => {
        live = page
          .waitForEvent('websocket', (ws) => ws.url().includes(socketPath(owner.company.id)))
          .then((ws) => ws.waitForEvent('framereceived'));
        await context.addInitScript(CAPTURE_NOTIFICATIONS);
      },
    });
    tabs.push(tab);
    await live;
    const { page, context } = tab;
    await context.grantPermissions(['notifications'], { origin: new URL(web()).origin });
    await (await seen(page.getByRole('button', { name: 'Turn on desktop notifications' }))).click();
    await seen(page.getByText('Desktop notifications on'));
    await seen(page.getByText('No open conversations'));
    await hideTab(page, true);

    // Support's customer first: had it been sent to her socket, it would arrive before Sales' text.
    const [other, hers] = [newPhone(), newPhone()];
    for (const body of ['Is my refund through?', 'Hello??'])
      expect((await textIn(support, { from: other, body })).status).toBe(200);
    expect((await textIn(sales, { from: hers, body: 'Do you ship to Canada?' })).status).toBe(200);
    const [otherNumber, herNumber] = [formatPhoneNumber(other, 'US'), formatPhoneNumber(hers, 'US')];
    await expect
      .poll(() => shownNotifications(page), { timeout: UI_TIMEOUT_MS })
      .toEqual([{ title: herNumber, body: 'Do you ship to Canada?' }]);

    await hideTab(page, false);
    await seen(rowOf(page, herNumber).getByText('1 unread'));
    expect(await rowOf(page, otherNumber).count()).toBe(0);
    // The badge and the title count what she sees (GET unread), never a count worked out from events:
    // Support's two texts are not in them.
    expect((await unreadSummary(grace)).count).toBe(1);
    await seen(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations 1 unread' }));
    expect(await page.title()).toBe('(1) Conversations · Switchboard');
    expect(tab.errors).toEqual([]);
  });
});
