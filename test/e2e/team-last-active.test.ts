import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { type Account, signUp } from '../support/api';
import { launchBrowser, PHONE, signedInTab, type Tab, UI_TIMEOUT_MS } from '../support/browser';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';

/**
 * The Team page's Last Active for someone using the app right now: Online while their app is open,
 * Just now once they close it, whatever it said when they signed in.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedIn(account: Account, path: string): Promise<Tab> {
  const tab = await signedInTab(browser, account, { path });
  return tab;
}

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

/** The Last Active cell of a person's row, as it reads on screen. */
const lastActive = (page: Page, name: string) =>
  page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('cell')
    .nth(2)
    .innerText();

describe('Last Active on the Team page', () => {
  it('reads Online for a colleague using the app now, and Just now once they close it', async () => {
    const owner = await signUp({ name: 'Ada Lovelace' });
    const colleague = await addTeamMember(owner, { name: 'Grace Hopper' });
    const grace = await signedIn(colleague, '/conversations');
    await signedInMinutesAgo(colleague, 10);

    const ada = await signedIn(owner, '/settings/team');
    await expect.poll(() => lastActive(ada.page, 'Grace Hopper'), { timeout: UI_TIMEOUT_MS }).toBe('Online');

    // The tab closes the way a person closes it: the page ends its socket itself.
    await grace.page.close();
    await grace.context.close();
    await expect.poll(() => lastActive(ada.page, 'Grace Hopper'), { timeout: UI_TIMEOUT_MS }).toBe('Just now');

    await ada.page.setViewportSize(PHONE);
    // On a phone the cell names itself; time may have passed, so only its words are checked.
    await expect.poll(() => lastActive(ada.page, 'Grace Hopper'), { timeout: UI_TIMEOUT_MS }).toMatch(/^Last active: \S/);
    expect(await lastActive(ada.page, 'Ada Lovelace')).toBe('Online');
    expect(ada.errors).toEqual([]);
    expect(grace.errors).toEqual([]);
    await ada.context.close();
  });
});
