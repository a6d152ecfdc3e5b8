import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, mailTo, signUp, uniqueEmail } from '../support/api';
import {
  gone,
  launchBrowser,
  linkToken,
  openTab,
  reached,
  requestedUrls,
  seen,
  signedInTab,
  type Tab,
  web,
} from '../support/browser';

/**
 * A team forms in the browser: the owner invites a colleague from the Team page, the colleague opens
 * the link the SES emulator holds, chooses a name and password, lands on the dashboard, and both see
 * each other on the Team page.
 */
let browser: Browser;
let owner: Account;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await signUp({ name: 'Ada Lovelace', companyName: 'Analytical Engines', password: PASSWORD });
});
afterAll(async () => {
  await browser?.close();
});

/** The accept link of the newest invitation mail to an address, as the person would click it. */
async function mailedInvitationLink(email: string): Promise<string> {
  const mail = (await mailTo(email)).at(-1);
  const match = mail && /https?:\/\/\S+\/accept-invite#token=[\w-]+/.exec(mail.text);
  if (!match) throw new Error(`no invitation link mailed to ${email}`);
  return match[0];
}

describe('team invitations', () => {
  // One journey told in steps that build on each other (a single test outgrew its bound on a busy machine).
  describe('the owner invites, the colleague joins from the mail, and both see each other on the Team page', () => {
    const colleague = uniqueEmail('grace');
    let ownerTab: Tab;
    let joinTab: Tab;
    let link = '';

    it('the owner sends an ADMIN invitation from the Team page, and it waits as pending', async () => {
      ownerTab = await signedInTab(browser, owner, { path: '/settings/team' });
      const { page } = ownerTab;
      await seen(page.getByRole('row', { name: /Ada Lovelace/ }));

      await page.getByRole('button', { name: 'Invite Member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite Member' });
      await seen(dialog);
      await dialog.getByLabel('Email').fill(colleague);
      await dialog.getByLabel('Role').selectOption('ADMIN');
      await dialog.getByRole('button', { name: 'Send Invitation' }).click();
      await gone(dialog);
      await seen(page.getByText(`Invitation sent to ${colleague}.`));
      const pending = page.getByRole('region', { name: 'Pending Invitations (1)' });
      await seen(pending.getByText(colleague));
    });

    it('the colleague opens the mailed link, names themself and lands on the dashboard; no URL carried the token', async () => {
      joinTab = await openTab(browser);
      link = await mailedInvitationLink(colleague);
      const requested = requestedUrls(joinTab.page);
      await joinTab.page.goto(link);
      await seen(joinTab.page.getByRole('heading', { name: 'Join Analytical Engines' }));
      // The token left the address bar at once, and no request carried it in its URL.
      expect(joinTab.page.url()).toBe(web('/accept-invite'));
      await seen(joinTab.page.getByText('invited you to join Analytical Engines on Switchboard as an admin'));
      expect(await joinTab.page.getByLabel('Email').inputValue()).toBe(colleague);

      await joinTab.page.getByLabel('Full name').fill('Grace Hopper');
      await joinTab.page.getByLabel('Password').fill('a fine password');
      await joinTab.page.getByRole('button', { name: 'Join Analytical Engines' }).click();
      await reached(joinTab.page, '/dashboard');
      await seen(joinTab.page.getByText('Grace Hopper').first());
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => url.includes(linkToken(link)))).toEqual([]);
    });

    it('both see each other on the Team page, Grace as ADMIN, and nothing is pending', async () => {
      await joinTab.page.goto(web('/settings/team'));
      await seen(joinTab.page.getByRole('row', { name: /Ada Lovelace/ }));
      await seen(joinTab.page.getByRole('row', { name: /Grace Hopper/ }));

      const { page } = ownerTab;
      await page.reload();
      const graceRow = page.getByRole('row', { name: /Grace Hopper/ });
      await seen(graceRow);
      await seen(graceRow.getByText('ADMIN'));
      await gone(page.getByRole('region', { name: /Pending Invitations/ }));
      for (const tab of [ownerTab, joinTab]) {
        expect(tab.errors).toEqual([]);
        await tab.context.close();
      }
    });
  });
});
