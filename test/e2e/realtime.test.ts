import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { socketPath } from '../../shared/contract/realtime-events';
import { type Account, signUp } from '../support/api';
import { gone, launchBrowser, PHONE, seen, signedInTab, type Tab, UI_TIMEOUT_MS } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { closeSocketsOf, socketCount } from '../support/sockets';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const signedIn = (account: Account, path: string): Promise<Tab> => signedInTab(browser, account, { path });

/** Closes the tab the way a person does, so the page ends its socket itself. */
async function closeTab(tab: Tab) {
  await tab.page.close();
  await tab.context.close();
}

const onlineMark = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) }).getByText('Online');

/** The Last Active cell of a person's row, as it reads on screen. */
const lastActive = (page: Page, name: string) =>
  page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('cell')
    .nth(2)
    .innerText();

/** As if they signed in `minutes` ago and have used the app since without signing in again. */
async function signedInMinutesAgo(account: Account, minutes: number) {
  const { client, tableName } = testTable();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.user(account.company.id, account.user.id),
      UpdateExpression: 'SET lastActiveAt = :at',
      ExpressionAttributeValues: { ':at': new Date(Date.now() - minutes * 60_000).toISOString() },
    }),
  );
}

/**
 * Runs the page's clock (Playwright's, installed before load) a second at a time until `check` holds:
 * the page's timers fire as its time passes, and the test waits for none of them in real time.
 */
async function runPageClockUntil(page: Page, check: () => Promise<boolean>): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await check()) return true;
        await page.clock.runFor(1_000);
        return false;
      },
      { timeout: UI_TIMEOUT_MS },
    )
    .toBe(true);
}

describe('presence and the live socket', () => {
  it('two colleagues see each other come online and go offline on the Team page; Last Active then reads Just now', async () => {
    const owner = await signUp({ name: 'Ada Lovelace' });
    const colleague = await addTeamMember(owner, { name: 'Grace Hopper' });
    // What Ada's page reads of Grace until she comes: Online must win over it, and Just now replace it.
    await signedInMinutesAgo(colleague, 10);

    const ada = await signedIn(owner, '/settings/team');
    await seen(ada.page.getByRole('row', { name: /Grace Hopper/ }));
    await seen(onlineMark(ada.page, 'Ada Lovelace'));
    // Ten minutes ago, or more on a slow machine: not Online, and not Just now.
    expect(await lastActive(ada.page, 'Grace Hopper')).toMatch(/^1\dm ago$/);

    const grace = await signedIn(colleague, '/settings/team');
    await seen(onlineMark(ada.page, 'Grace Hopper'));
    await seen(onlineMark(grace.page, 'Ada Lovelace'));

    // Leaving ends her socket, as closing the tab does: the server records the moment she left.
    await grace.page.getByRole('button', { name: 'Logout' }).click();
    await gone(onlineMark(ada.page, 'Grace Hopper'));
    await expect.poll(() => lastActive(ada.page, 'Grace Hopper'), { timeout: UI_TIMEOUT_MS }).toBe('Just now');

    await ada.page.setViewportSize(PHONE);
    // On a phone the cell names itself; time may have passed, so only its words are checked.
    await expect.poll(() => lastActive(ada.page, 'Grace Hopper'), { timeout: UI_TIMEOUT_MS }).toMatch(/^Last active: \S/);
    expect(await lastActive(ada.page, 'Ada Lovelace')).toBe('Online');
    expect(ada.errors).toEqual([]);
    expect(grace.errors).toEqual([]);
    await Promise.all([closeTab(ada), closeTab(grace)]);
  });

  it('after the server closes the socket the tab reconnects by itself and keeps receiving events', async () => {
    const owner = await signUp({ name: 'Ada Lovelace' });
    const colleague = await addTeamMember(owner, { name: 'Grace Hopper' });
    const ada = await signedIn(owner, '/settings/team');
    await seen(onlineMark(ada.page, 'Ada Lovelace'));
    await expect.poll(() => closeSocketsOf(owner), { timeout: UI_TIMEOUT_MS }).toBe(1);
    // The next attempt waits at least half a second (back-off): its socket opens after this.
    const reconnected = ada.page.waitForEvent('websocket', (ws) => ws.url().includes(socketPath(owner.company.id)));
    await reconnected;
    // Events reach the new socket: a colleague coming online shows up.
    const grace = await signedIn(colleague, '/dashboard');
    await seen(onlineMark(ada.page, 'Grace Hopper'));
    expect(await ada.page.getByText('Reconnecting…').count()).toBe(0);
    expect(ada.errors).toEqual([]);
    await Promise.all([closeTab(ada), closeTab(grace)]);
  });

  it('says Reconnecting… while the socket cannot come back, and nothing once it is back', async () => {
    const owner = await signUp({ name: 'Ada Lovelace' });
    // The notice waits 5 s (RECONNECTING_NOTICE_DELAY_MS) and the attempts back off up to 30 s
    // (SOCKET_RECONNECT): timers of the page's clock, which the test runs instead of waiting.
    const ada = await signedInTab(browser, owner, {
      path: '/settings/team',
      beforeLoad: ({ context }) => context.clock.install(),
    });
    // Her own presence shows once her socket is live.
    await seen(onlineMark(ada.page, 'Ada Lovelace'));

    // No ticket can be had (the network is down for it): the socket stays down, past the notice's delay.
    await ada.page.route(`**${endpoints.realtimeTicket.path}`, (route) => route.abort('internetdisconnected'));
    await expect.poll(() => closeSocketsOf(owner), { timeout: UI_TIMEOUT_MS }).toBe(1);
    const notice = ada.page.getByRole('status').filter({ hasText: 'Reconnecting…' });
    await runPageClockUntil(ada.page, () => notice.isVisible());
    expect(await notice.isVisible()).toBe(true);

    // Back: the next attempt, whenever its back-off ends, gets through.
    await ada.page.unroute(`**${endpoints.realtimeTicket.path}`);
    await runPageClockUntil(ada.page, async () => (await ada.page.getByText('Reconnecting…').count()) === 0);
    await gone(ada.page.getByText('Reconnecting…'));
    await expect.poll(() => socketCount(owner), { timeout: UI_TIMEOUT_MS }).toBe(1);
    expect(ada.errors).toEqual([]);
    await closeTab(ada);
  });
});
