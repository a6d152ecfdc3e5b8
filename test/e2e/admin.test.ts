import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from '../support/api';
import { gone, launchBrowser, openTab, PHONE, reached, seen, web, writeStorage } from '../support/browser';
import { PLATFORM_ADMIN_NAMED } from '../support/global-setup';
import { withClaims } from '../support/tokens';

/**
 * The admin overview for a platform administrator the operator named while they were signed in, and
 * its companies on a 360 px phone.
 */
let browser: Browser;
let ops: Account;
let customer: Account;

beforeAll(async () => {
  browser = await launchBrowser();
  ops = await signUp({ email: PLATFORM_ADMIN_NAMED, name: 'Olive Operator', companyName: 'Platform Ops' });
  customer = await signUp({ name: 'Bartholomew Featherstonehaugh', companyName: 'Featherstonehaugh Refrigeration Consultancy' });
});
afterAll(async () => {
  await browser?.close();
});

/** A tab signed in as `account`, its session stored as it was at another moment (token claims and stored user). */
async function tabWithSession(account: Account, then: { isPlatformAdmin: boolean }, viewport?: typeof PHONE) {
  const tab = await openTab(browser, viewport ? { viewport } : {});
  await tab.page.goto(web('/login'));
  await seen(tab.page.getByRole('heading', { name: 'Sign in' }));
  await writeStorage(tab.page, {
    accessToken: await withClaims(account.tokens.accessToken, { adm: then.isPlatformAdmin }),
    refreshToken: account.tokens.refreshToken,
    user: JSON.stringify({ ...account.user, isPlatformAdmin: then.isPlatformAdmin }),
    company: JSON.stringify(account.company),
  });
  return tab;
}

const adminLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' });

/** Words of the element's visible text that the browser split over two lines. */
const brokenWords = (root: Locator) =>
  root.evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Text only for screen readers (sr-only) is one pixel wide on purpose.
      if (!parent || parent.getBoundingClientRect().width <= 1) continue;
      for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });

/** Whether all of the element lies inside the window, not cut off by a scrolling box. */
const insideWindow = (element: Locator) =>
  element.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.left >= 0 && box.right <= window.innerWidth;
  });

describe('the admin overview', () => {
  it('the Admin link and /admin agree once the operator names an administrator, without signing in again', async () => {
    // Signed in before the operator named the address: the token and the stored user still say no.
    const { page, errors, context } = await tabWithSession(ops, { isPlatformAdmin: false });
    await page.goto(web('/dashboard'));
    await adminLink(page).click();
    await reached(page, '/admin');
    await seen(page.getByRole('heading', { name: 'Admin overview' }));
    await seen(page.getByText(/\d+% verified/));
    await gone(page.getByRole('heading', { name: 'Access denied. Admin privileges required.' }));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 360 px every company shows all its details, labelled, with no word broken', async () => {
    const { page, errors, context } = await tabWithSession(ops, { isPlatformAdmin: true }, PHONE);
    await page.goto(web('/admin'));
    await seen(page.getByRole('heading', { name: 'Admin overview' }));
    const companies = page.getByRole('table', { name: 'Companies' });
    const company = await seen(companies.getByRole('row').filter({ hasText: customer.email }));
    expect(await company.textContent()).toContain('Featherstonehaugh Refrigeration Consultancy');
    for (const label of ['Owner', 'Provider', 'Activity', 'SMS sent', 'SMS received', 'Created']) {
      expect(await insideWindow(await seen(company.getByText(label, { exact: true }))), label).toBe(true);
    }
    for (const cell of await company.getByRole('cell').all()) expect(await insideWindow(cell)).toBe(true);
    // This test's company: other files' companies share the page, one with an e-mail made unbreakable on purpose (layout.test.ts).
    expect(await brokenWords(company)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(
      PHONE.width,
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
