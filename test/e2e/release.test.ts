import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/ports';
import { serveBuiltWeb } from '../../local/web';
import { HASHED_ASSETS_DIR } from '../../web/cache-control';
import { type Account, signUp, stack } from '../support/api';
import { launchBrowser, reached, seen, signedInTab } from '../support/browser';

/**
 * docs/product.md: A new version while a tab is open. A tab opened on release A meets release B: the
 * stack's own build (A), and B made from it by renaming every hashed file, as a release that changed
 * every chunk would name them. The folder a server of this file serves goes from A to B as a deploy
 * would leave the bucket if it pruned: A's chunks gone (docs/deploy.md: Releases and open tabs).
 */

let browser: Browser;
let account: Account;
let work: string;
let releaseA: string;
let releaseB: string;
let served: string;
let server: Awaited<ReturnType<typeof serveBuiltWeb>>;

/** Release B: A's files under new names, and every reference to them changed with them. */
function nextRelease(from: string, to: string) {
  cpSync(from, to, { recursive: true });
  const assets = join(to, HASHED_ASSETS_DIR);
  const renames = readdirSync(assets)
    .map((name) => [name, name.replace(/(\.\w+)$/, '-b$1')] as const)
    .sort(([a], [b]) => b.length - a.length);
  for (const [name, renamed] of renames) renameSync(join(assets, name), join(assets, renamed));
  const texts = [
    join(to, 'index.html'),
    ...readdirSync(assets)
      .filter((name) => /\.(js|css)$/.test(name))
      .map((name) => join(assets, name)),
  ];
  for (const file of texts) {
    let text = readFileSync(file, 'utf8');
    for (const [name, renamed] of renames) text = text.split(name).join(renamed);
    writeFileSync(file, text);
  }
}

/** Puts a release in the served folder as a pruning deploy leaves it: the other release's hashed files gone. */
function deploy(release: string) {
  rmSync(served, { recursive: true, force: true });
  cpSync(release, served, { recursive: true });
}

/** The entry script the page runs (index.html's module script). */
const entryOf = (page: Page) =>
  page.evaluate(() => new URL((document.querySelector('script[type="module"][src]') as HTMLScriptElement).src).pathname);
const entryIn = (release: string) =>
  (/<script type="module"[^>]*src="([^"]+)"/.exec(readFileSync(join(release, 'index.html'), 'utf8')) ?? [])[1];
/** The files of a release whose name begins so (a page's chunk). */
const chunkOf = (release: string, prefix: string) =>
  readdirSync(join(release, HASHED_ASSETS_DIR)).find((name) => name.startsWith(prefix) && name.endsWith('.js')) as string;
/** The JavaScript files the document loaded so far. */
const scriptsLoaded = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.endsWith('.js')),
  );

/** Counts the documents a tab loads: its first, and each reload. */
function countLoads(page: Page) {
  const loads = { count: 0 };
  page.on('domcontentloaded', () => {
    loads.count += 1;
  });
  return loads;
}

beforeAll(async () => {
  const built = stack().webBuildDir;
  if (!built) throw new Error('The browser stack serves no build (BROWSER_WEB=dev?): this file plays releases of one.');
  work = mkdtempSync(join(tmpdir(), 'switchboard-release-'));
  releaseA = join(work, 'a');
  releaseB = join(work, 'b');
  served = join(work, 'served');
  cpSync(built, releaseA, { recursive: true });
  nextRelease(releaseA, releaseB);
  deploy(releaseA);
  const { urls } = stack();
  server = await serveBuiltWeb({
    outDir: served,
    port: await freePort(),
    apiPort: Number(new URL(urls.api).port),
    signallingHost: new URL(urls.signalling).host,
    picturesOrigin: new URL(urls.pictures).origin,
  });
  browser = await launchBrowser();
  account = await signUp({ name: 'Grace Hopper', companyName: 'Release Day' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a tab open across a release', () => {
  it('opens a page it had not loaded in the new release, reloading once, never to a blank screen', async () => {
    deploy(releaseA);
    const { context, page, errors } = await signedInTab(browser, account, {
      webUrl: server.url,
      path: '/dashboard',
    });
    const loads = countLoads(page);
    await seen(page.getByRole('heading', { name: 'Welcome, Grace Hopper' }));
    expect(await entryOf(page)).toBe(entryIn(releaseA));
    const contactsA = chunkOf(releaseA, 'contacts-page-');
    expect(await scriptsLoaded(page)).not.toContain(`/${HASHED_ASSETS_DIR}/${contactsA}`);

    deploy(releaseB);
    expect((await page.request.get(`${server.url}/${HASHED_ASSETS_DIR}/${contactsA}`)).status()).toBe(403);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();

    await seen(page.getByRole('heading', { name: 'Contacts', level: 1 }));
    await reached(page, '/contacts');
    expect(await entryOf(page)).toBe(entryIn(releaseB));
    expect(await scriptsLoaded(page)).toContain(`/${HASHED_ASSETS_DIR}/${chunkOf(releaseB, 'contacts-page-')}`);
    expect(loads.count).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says a new version is available, with Reload, when reloading once did not bring the page', async () => {
    deploy(releaseB);
    const { context, page, errors } = await signedInTab(browser, account, { webUrl: server.url, path: '/dashboard' });
    const loads = countLoads(page);
    await seen(page.getByRole('heading', { name: 'Welcome, Grace Hopper' }));
    // A release whose Call History chunk never arrived: reloading cannot bring it.
    rmSync(join(served, HASHED_ASSETS_DIR, chunkOf(releaseB, 'call-history-page-')));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call History' }).click();

    const notice = await seen(page.getByRole('alert').filter({ hasText: 'A new version is available' }));
    await seen(notice.getByRole('button', { name: 'Reload' }));
    await reached(page, '/calls');
    // One reload, then the notice: no loop. The shell stays, so another page is one click away.
    expect(loads.count).toBe(1);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await seen(page.getByRole('heading', { name: 'Contacts', level: 1 }));
    expect(loads.count).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the local server of the built app, as CloudFront (docs/deploy.md: Releases and open tabs)', () => {
  it('sends index.html no-cache, hashed files immutable for a year, and 403 for a file that is not there', async () => {
    deploy(releaseA);
    const { context, page } = await signedInTab(browser, account, { webUrl: server.url, path: '/login' });
    const get = (path: string) => page.request.get(`${server.url}${path}`);
    for (const path of ['/', '/contacts', '/index.html']) {
      const answer = await get(path);
      expect(answer.status(), path).toBe(200);
      expect(answer.headers()['cache-control'], path).toBe('no-cache');
    }
    const entry = await get(entryIn(releaseA) as string);
    expect(entry.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`/${HASHED_ASSETS_DIR}/index-gone.js`)).status()).toBe(403);
    await context.close();
  });
});
