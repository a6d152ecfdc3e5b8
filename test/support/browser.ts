import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import axe from 'axe-core';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';
import { hashOpaqueToken } from '../../functions/auth/opaque-tokens';
import { epochSeconds, keys } from '../../functions/lib/table';
import { callRoute, mailTo, newClientAddress, signIn, stack, uniqueEmail } from './api';
import { type LaunchOptions, launchChromium } from './browser-launch';
import { endpoints } from './endpoints';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 360, height: 740 } as const;

/** How long a visible outcome may take (with BROWSER_WEB=dev, the dev server compiles a page's modules on its first visit). */
export const UI_TIMEOUT_MS = 30_000;

export const launchBrowser = (options?: LaunchOptions): Promise<Browser> => launchChromium(options);

/** The web app's address for a path, as the mailed links spell it (APP_URL). */
export const web = (path = '/') => `${stack().urls.web}${path}`;

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page; a test ends by expecting none. */
  errors: Error[];
}

/**
 * A fresh browser profile (own storage) with one page at the desktop size unless told otherwise. It
 * trusts the Twilio emulator's self-signed certificate (the Voice SDK's wss:// signalling and sounds),
 * as a person does once by accepting it (docs/local-stack.md: Trusting the signalling certificate).
 */
export async function openTab(browser: Browser, options: BrowserContextOptions = {}): Promise<Tab> {
  const context = await browser.newContext({ viewport: DESKTOP, ignoreHTTPSErrors: true, ...options });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  return { context, page, errors };
}

/** Waits until the element is on screen (Playwright's auto-wait), failing with the locator in the message. */
export async function seen(locator: Locator): Promise<Locator> {
  await locator.waitFor({ state: 'visible' });
  return locator;
}

/** Waits until the element is gone from the screen. */
export async function gone(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'hidden' });
}

/** Path (with query) of the page's current address. */
export const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

/** Waits for the address to reach a path (exactly); on timeout says where the page is instead. */
export async function reached(page: Page, path: string, timeout?: number): Promise<void> {
  try {
    await page.waitForURL((url) => `${url.pathname}${url.search}` === path, { timeout });
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
    throw new Error(`Expected the page to reach ${path}, but it stayed at ${pathOf(page)}`, { cause: error });
  }
}

export const SESSION_KEYS = ['accessToken', 'refreshToken', 'user', 'company'] as const;
export type StoredSession = Record<(typeof SESSION_KEYS)[number], string | null>;

/** The four session items in the page's localStorage. */
export function storedSession(page: Page): Promise<StoredSession> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((k) => [k, window.localStorage.getItem(k)])) as StoredSession,
    [...SESSION_KEYS],
  );
}

export function writeStorage(page: Page, items: Record<string, string>): Promise<void> {
  return page.evaluate((entries) => {
    for (const [k, v] of Object.entries(entries)) window.localStorage.setItem(k, v);
  }, items);
}

/** How a form field reads to assistive technology: marked invalid or not, and the text describing it. */
export function fieldState(field: Locator): Promise<{ invalid: boolean; description: string }> {
  return field.evaluate((el) => ({
    invalid: el.getAttribute('aria-invalid') === 'true',
    description: (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`)
      .join(' '),
  }));
}

export const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

export const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

/** Signs in through the login form the way a person does and waits to leave /login. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  if (new URL(page.url()).pathname !== '/login') await page.goto(web('/login'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/**
 * A tab already signed in as `account`, opened at `path`: a sign-in session of its own from the API's
 * login (as the form's sign-in makes one per device), put in the profile's localStorage (SESSION_KEYS)
 * when the profile is made, so the app starts signed in as after a reload. For tests whose subject is
 * not the sign-in form (sessions.test.ts and the journeys sign in through the form): the form costs a
 * page and a round of typing per tab. The storage is written once, not per page load, so a refresh or a
 * sign-out in the test sticks.
 */
export async function signedInTab(
  browser: Browser,
  account: { email: string; password: string },
  options: BrowserContextOptions & {
    path?: string;
    /** What the test sets up on the tab before the app's first page (init scripts, listeners). */
    beforeLoad?: (tab: Tab) => unknown;
    /** The web app's address, when another server than the stack's serves it (test/e2e/release.test.ts). */
    webUrl?: string;
  } = {},
): Promise<Tab> {
  const { path = '/', beforeLoad, webUrl, ...contextOptions } = options;
  const address = (p: string) => (webUrl ? `${webUrl}${p}` : web(p));
  const session = await signIn(account);
  const items: StoredSession = {
    accessToken: session.tokens.accessToken,
    refreshToken: session.tokens.refreshToken,
    user: JSON.stringify(session.user),
    company: JSON.stringify(session.company),
  };
  const tab = await openTab(browser, {
    ...contextOptions,
    storageState: {
      cookies: [],
      origins: [
        {
          origin: new URL(address('/')).origin,
          localStorage: Object.entries(items).flatMap(([name, value]) => (value === null ? [] : [{ name, value }])),
        },
      ],
    },
  });
  await beforeLoad?.(tab);
  await tab.page.goto(address(path));
  return tab;
}

/** Registers through the API only (no verification): an account that cannot sign in yet. */
export async function registerUnverified(password: string, overrides: { email?: string; name?: string } = {}) {
  const email = overrides.email ?? uniqueEmail('unverified');
  const res = await callRoute(endpoints.register, {
    body: { companyName: 'Initech Help', name: overrides.name ?? 'Peter Gibbons', email, password },
    address: newClientAddress(),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return email.toLowerCase();
}

/** The verification link mailed to an address (waits for the SES emulator to hold `count` mails). */
export async function mailedVerificationLink(email: string, count = 1): Promise<string> {
  await expect.poll(async () => (await mailTo(email)).length, { timeout: UI_TIMEOUT_MS, interval: 100 }).toBe(count);
  const mail = (await mailTo(email)).at(-1);
  const link = /(https?:\/\/\S+\/verify-email#token=[\w-]+)/.exec(mail?.text ?? '')?.[1];
  if (!link) throw new Error(`No verification link in the mail to ${email}: ${mail?.text}`);
  return link;
}

/** The token a mailed link carries in its fragment (`#token=`), which the browser never sends. */
export const linkToken = (link: string): string => new URLSearchParams(new URL(link).hash.slice(1)).get('token') ?? '';

/**
 * Every URL a page asks for, to show a link's token never travels in one: what CloudFront
 * would log. A request's URL never includes the fragment.
 */
export function requestedUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Moves a verification link's expiry into the past, straight in the stack's DynamoDB Local. */
export async function expireVerificationLink(link: string): Promise<void> {
  const token = linkToken(link);
  const { env, urls } = stack();
  const client = new DynamoDBClient({
    endpoint: urls.dynamodb,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
  try {
    await DynamoDBDocumentClient.from(client).send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: keys.verification(hashOpaqueToken(token)),
        UpdateExpression: 'SET validUntil = :past',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':past': epochSeconds() - 60 },
      }),
    );
  } finally {
    client.destroy();
  }
}

const BLOCKING = new Set(['serious', 'critical']);

/**
 * The axe rules whose answer depends on colours. The theme is one class on <html> that changes
 * colours and nothing of the structure (no element is shown or hidden by it: no `dark:hidden` in
 * web/src), so a second theme needs only these checked again.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/**
 * axe-core on the page as it is now: the violations of impact serious or critical, readable. axe is
 * put into the page once per document and run there directly: AxeBuilder opened a blank page for each
 * check to gather frames the app does not have, which cost over a second a check (about 60 % of the
 * settings journey's time).
 */
export async function seriousA11yViolations(page: Page, options: { only?: readonly string[] } = {}): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  const results = await page.evaluate(
    (only) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, {
        resultTypes: ['violations'],
        ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      }),
    options.only ? [...options.only] : undefined,
  );
  if (results.passes.length === 0) throw new Error(`axe checked nothing on ${page.url()}: is the page empty?`);
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes
          .map((n) => `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`)
          .join('\n')}`,
    );
}

/**
 * The tabs a test opens, checked and closed after it: none may have page errors, and closing a tab
 * ends its device, so the next test's calls ring only its own tabs.
 */
export function tabsClosedAfterEach(): Tab[] {
  const tabs: Tab[] = [];
  afterEach(async () => {
    const closing = tabs.splice(0);
    for (const tab of closing) expect(tab.errors).toEqual([]);
    await Promise.all(closing.map((tab) => tab.context.close()));
  });
  return tabs;
}
