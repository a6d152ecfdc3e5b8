import type { Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONNECTING_NOTICE_DELAY_MS } from '../../shared/constants';
import { socketPath } from '../../shared/contract/realtime-events';
import { isPathOf } from '../../shared/contract/route';
import { callRoute } from '../support/api';
import { gone, launchBrowser, openTab, seen, signInThroughForm, type Tab, UI_TIMEOUT_MS, web } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { newPhone, type SmsLine, smsLine, textIn } from '../support/sms';
import { closeSocketsOf } from '../support/sockets';

const MINUTE = 60_000;

/** The reads the issue is about: the conversation list, a thread, Call History. */
const isPolledRead = (url: string) => /^\/api\/v1\/(conversations|calls)(\/|$)/.test(new URL(url).pathname);
const isThreadRead = (url: string, id: string) => isPathOf(endpoints.getConversation.path, url, { id });
const isListRead = (url: string) => isPathOf(endpoints.listConversations.path, url);

/** The page's reads from now on. */
function readsFrom(page: Page) {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && isPolledRead(request.url())) urls.push(request.url());
  });
  return {
    all: () => [...urls],
    reset: () => urls.splice(0),
  };
}

/** Resolves once the next realtime socket the page opens is live: the server's presence snapshot reached it. */
async function nextLiveSocket(page: Page, companyId: string): Promise<WebSocket> {
  // Not the softphone's signalling socket to the Twilio emulator.
  const ws = await page.waitForEvent('websocket', {
    predicate: (s) => s.url().includes(socketPath(companyId)),
    timeout: UI_TIMEOUT_MS * 2,
  });
  await ws.waitForEvent('framereceived', {
    predicate: (f) => String(f.payload).includes('presence_snapshot'),
    timeout: UI_TIMEOUT_MS,
  });
  return ws;
}

describe('no polling while the socket is connected', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let line: SmsLine;
  let agent: Tab;
  let reads: ReturnType<typeof readsFrom>;
  const customer = newPhone();
  let conversationId: string;
  const reconnecting = () => agent.page.getByRole('status').getByText('Reconnecting…');
  const thread = () => agent.page.locator('section[aria-labelledby="thread-title"]').getByRole('list', { name: 'Messages' });

  beforeAll(async () => {
    browser = await launchBrowser();
    line = await smsLine();
    expect((await textIn(line, { from: customer, body: 'Is my order ready?' })).status).toBe(200);
    const list = await callRoute(endpoints.listConversations, { token: line.account.tokens.accessToken });
    conversationId = list.body.data.conversations[0]?.id ?? '';

    agent = await openTab(browser);
    // The page's timers run on a clock the test moves: a minute passes without waiting for it.
    await agent.page.clock.install();
    const signedIn = nextLiveSocket(agent.page, line.account.company.id);
    await signInThroughForm(agent.page, line.account.email, line.account.password);
    await signedIn;
    const live = nextLiveSocket(agent.page, line.account.company.id);
    reads = readsFrom(agent.page);
    await agent.page.goto(web(`/conversations/${conversationId}`));
    await live;
    await seen(thread().getByText('Is my order ready?'));
    await seen(agent.page.getByRole('link', { name: /Is my order ready\?/ }));
    // The first reads have been made; from now on nothing but the socket should bring news.
    expect(reads.all().filter(isListRead).length).toBeGreaterThan(0);
    expect(reads.all().filter((url) => isThreadRead(url, conversationId)).length).toBeGreaterThan(0);
    reads.reset();
  });
  afterAll(async () => {
    await agent?.context.close();
    await browser?.close();
  });

  it('with the socket connected, the open thread and the list read nothing for a minute, and a new text appears at once', async () => {
    await agent.page.clock.runFor(MINUTE + 5_000);
    expect(reads.all()).toEqual([]);

    expect((await textIn(line, { from: customer, body: 'It was due on Monday.' })).status).toBe(200);
    await seen(thread().getByText('It was due on Monday.'));
    await seen(agent.page.getByRole('link', { name: /It was due on Monday\./ }));
    await agent.page.clock.runFor(MINUTE);
    expect(reads.all()).toEqual([]);
    expect(agent.errors).toEqual([]);
  });

  it('with the socket cut, the list and the thread are polled every minute again; back, polling stops', async () => {
    // No ticket can be had: the socket stays down.
    await agent.page.route(`**${endpoints.realtimeTicket.path}`, (route) => route.abort('internetdisconnected'));
    await expect.poll(() => closeSocketsOf(line.account), { timeout: UI_TIMEOUT_MS }).toBe(1);
    // The page has seen it close (the server's count does not say so): only then do its intervals
    // change, and a minute run before that would pass under the old ones.
    await agent.page.clock.runFor(RECONNECTING_NOTICE_DELAY_MS);
    await seen(reconnecting());
    reads.reset();

    await agent.page.clock.runFor(MINUTE + 5_000);
    await expect.poll(() => reads.all().filter(isListRead).length, { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0);
    await expect
      .poll(() => reads.all().filter((url) => isThreadRead(url, conversationId)).length, { timeout: UI_TIMEOUT_MS })
      .toBeGreaterThan(0);

    // Back: the reconnect reads the list and the thread again (what events it missed); then quiet again.
    const live = nextLiveSocket(agent.page, line.account.company.id);
    await agent.page.unroute(`**${endpoints.realtimeTicket.path}`);
    reads.reset();
    await agent.page.clock.runFor(31_000);
    await live;
    await expect.poll(() => reads.all().filter(isListRead).length, { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0);
    await expect
      .poll(() => reads.all().filter((url) => isThreadRead(url, conversationId)).length, { timeout: UI_TIMEOUT_MS })
      .toBeGreaterThan(0);
    await gone(reconnecting());
    reads.reset();
    await agent.page.clock.runFor(MINUTE + 5_000);
    expect(reads.all()).toEqual([]);
    expect(agent.errors).toEqual([]);
  });
});
