import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallingSettings } from '../../shared/contract/voice';
import { type Account, api, signUp } from '../support/api';
import { launchBrowser, seen, signedInTab, tabsClosedAfterEach } from '../support/browser';
import { addTeamMember } from '../support/team';

/**
 * Settings → Calling (issue 21, toll fraud) in the browser: the owner narrows the countries agents may
 * call and the company's calls a minute, saves, and finds them kept after a reload; an agent reads them.
 */
let browser: Browser;
let owner: Account;
const PASSWORD = 'correct horse battery';
const tabs = tabsClosedAfterEach();

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await signUp({ password: PASSWORD });
});
afterAll(async () => {
  await browser?.close();
});

const storedCalling = async (account: Account) =>
  (await api<{ settings: { calling: CallingSettings } }>('/api/v1/company/settings', { token: account.tokens.accessToken })).body
    .data.settings.calling;

describe('Settings → Calling', () => {
  it('the owner chooses countries and the rate, saves, and sees them kept after a reload', async () => {
    const tab = await signedInTab(browser, owner, { path: '/settings' });
    tabs.push(tab);
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Calling' }).click();
    await seen(page.getByRole('heading', { name: 'Calling', level: 1 }));
    const countries = page.getByRole('group', { name: 'Allowed countries' });
    await seen(countries.getByText('50 of 50 countries can be called.'));
    const save = page.getByRole('button', { name: 'Save changes' });
    expect(await save.isDisabled()).toBe(true);

    // None chosen cannot be saved: the page says why.
    await countries.getByRole('button', { name: 'Clear' }).click();
    await seen(countries.getByText('Choose at least one country'));
    expect(await save.isDisabled()).toBe(true);
    await countries.getByRole('checkbox', { name: /United States/ }).check();
    // Keyboard: Space ticks the focused box.
    await countries.getByRole('checkbox', { name: /United Kingdom/ }).focus();
    await page.keyboard.press('Space');
    await seen(countries.getByText('2 of 50 countries can be called.'));
    const rate = page.getByLabel('Calls a minute, for the whole company');
    await rate.fill('0');
    await seen(page.getByText('Enter a whole number from 1 to 600'));
    expect(await save.isDisabled()).toBe(true);
    await rate.fill('12');
    await save.click();
    await seen(page.getByText('Calling settings saved.'));
    expect(await storedCalling(owner)).toEqual({
      allowedCountries: ['US', 'GB'],
      outboundCallsPerMinute: 12,
      voicemailGreeting: null,
    });

    await page.reload();
    await seen(countries.getByText('2 of 50 countries can be called.'));
    expect(await countries.getByRole('checkbox', { name: /United States/ }).isChecked()).toBe(true);
    expect(await countries.getByRole('checkbox', { name: /United Kingdom/ }).isChecked()).toBe(true);
    expect(await countries.getByRole('checkbox', { name: /Canada/ }).isChecked()).toBe(false);
    expect(await rate.inputValue()).toBe('12');
    expect(await save.isDisabled()).toBe(true);
  });

  it('an agent reads them and cannot change them', async () => {
    const agent = await addTeamMember(owner, { name: 'Agent Smith' });
    const tab = await signedInTab(browser, agent, { path: '/settings/calling' });
    tabs.push(tab);
    const { page } = tab;
    await seen(page.getByText('Only the owner and admins can change these settings.'));
    const countries = page.getByRole('group', { name: 'Allowed countries' });
    await seen(countries.getByText('2 of 50 countries can be called.'));
    expect(await countries.getByRole('checkbox', { name: /Canada/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await page.getByLabel('Calls a minute, for the whole company').getAttribute('readonly')).not.toBeNull();
  });
});
