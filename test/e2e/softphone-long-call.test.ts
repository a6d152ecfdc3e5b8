import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../../shared/contract/calls';
import { isPathOf } from '../../shared/contract/route';
import { type Account, signUp, stack } from '../support/api';
import { launchBrowser, seen, signedInTab, tabsClosedAfterEach, web } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';
import { advanceStackClock, stackClock } from '../support/stack-clock';
import { BROWSER_SIGNALLING_HEARTBEAT_MS, BROWSER_VOICE_TOKEN_TTL_SECONDS } from '../support/test-stack';
import { callFromPhone, emulatorCall, hangUpCall } from '../support/twilio';
import { addInboxMember, identityOf, listCalls, phoneReady, routeChannel } from '../support/voice';

/**
 * Calls that last, in Chromium with the real Voice SDK: the SDK drops a signalling socket that hears
 * nothing for 15 s, so a call held well past that shows the emulator keeps the socket alive as Twilio
 * does; and a socket lost mid-call comes back with the call still on.
 *
 * Time is a parameter here, not a wait: each page runs on Playwright's clock, installed before the app
 * loads, and a call "goes on" by moving that clock and the stack's together (`talk`): the SDK's
 * timers (the heartbeat timeout, tokenWillExpire, its registrations) and the call timer run on the
 * page's; call durations, token expiry and the emulator's token checks on the stack's (local/clock.ts;
 * docs/architecture.md §6).
 */
const CALLER = '+14155550123';
const WAIT = { timeout: 30_000 } as const;
/**
 * A call held this long: twice the SDK's 15 s heartbeat timeout. Besides the emulator's heartbeats,
 * the socket hears the answer (at 0:00) and, during the call, at most one registration answer (the SDK
 * registers every 30 s), so in any 30 s of the call there are 15 s in which only a heartbeat could
 * keep the socket open: without one the SDK would have dropped it, and the widget said so, by 0:30.
 */
const HELD_SECONDS = 30;
/**
 * How far `talk` moves the clocks per heartbeat the page hears: the emulator's interval outside tests
 * (packages/twilio-emulator/src/signalling/heartbeat.ts). The browser stack beats every
 * BROWSER_SIGNALLING_HEARTBEAT_MS, so the SDK hears the emulator at its own pace, 20 times as fast.
 */
const BEAT_PACE_MS = 5_000;
/** The SDK registers again every 30 s (REGISTRATION_INTERVAL in its device.ts). */
const REGISTRATION_INTERVAL_MS = 30_000;
/** The call timer at 0:30 or later (it ticks every second; a busy machine may look at it late). */
const PAST_HELD = /^(0:[3-5]\d|[1-9]\d*:\d{2})$/;
const LOST_CONNECTION = ['Device disconnected', 'Lost connection to server. Reconnecting...'];

let browser: Browser;
let owner: Account;
let number: string;
const tabs = tabsClosedAfterEach();

beforeAll(async () => {
  browser = await launchBrowser({ fakeMicrophone: true });
  owner = await signUp({ name: 'Lena Longcall' });
  const [connected, inbox] = await Promise.all([withChannel(owner), createInbox(owner, 'Support')]);
  number = connected.channel.identifier;
  await addInboxMember(owner, inbox.id, owner.user.id);
  await routeChannel(owner, connected.channel, 'INBOX', inbox.id);
});

afterAll(async () => {
  await browser?.close();
});

/**
 * Test-side only: the page records every lost-connection wording the widget ever shows (`__lostConnection`),
 * however briefly, and keeps the SDK's signalling sockets (`__signalling`) so a test can lose one; it
 * counts the heartbeats they hear (`__beats`) and lists the protocol messages they carry (`__frames`:
 * `out:register`, `in:ready`...).
 */
const WATCH = `(() => {
  const wordings = ${JSON.stringify(LOST_CONNECTION)};
  window.__lostConnection = [];
  new MutationObserver(() => {
    const text = document.documentElement.textContent || '';
    for (const words of wordings) {
      if (text.includes(words) && !window.__lostConnection.includes(words)) window.__lostConnection.push(words);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
  const Native = window.WebSocket;
  window.__signalling = [];
  window.__beats = 0;
  window.__frames = [];
  const note = (way, data) => {
    try { window.__frames.push(way + ':' + JSON.parse(data).type); } catch {}
  };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (!String(args[0]).includes('/signal')) return;
      window.__signalling.push(this);
      this.addEventListener('message', (event) => {
        if (event.data === '\\n') window.__beats++;
        else note('in', event.data);
      });
    }
    send(data) {
      if (window.__signalling.includes(this) && data !== '\\n') note('out', data);
      return super.send(data);
    }
  };
})();`;

const lostConnectionShown = (page: Page) =>
  page.evaluate(() => (window as unknown as { __lostConnection: string[] }).__lostConnection);

const beatsHeard = (page: Page) => page.evaluate(() => (window as unknown as { __beats: number }).__beats);
const framesOf = (page: Page) => page.evaluate(() => (window as unknown as { __frames: string[] }).__frames);

/**
 * The call goes on for `ms` of the page's clock and the stack's, both moved BEAT_PACE_MS at a time, a
 * step only once the page has heard the emulator's next heartbeat: the SDK, whose clock runs 20 times
 * as fast, hears from the emulator as often as outside tests, and nothing else keeps its socket. Stops
 * early once `until` holds.
 */
async function talk(page: Page, ms: number, until?: () => Promise<boolean>): Promise<void> {
  for (let moved = 0; moved < ms; moved += BEAT_PACE_MS) {
    if (await until?.()) return;
    const heard = await beatsHeard(page);
    await expect.poll(() => beatsHeard(page), { timeout: 60 * BROWSER_SIGNALLING_HEARTBEAT_MS }).toBeGreaterThan(heard);
    await advanceStackClock(BEAT_PACE_MS);
    await page.clock.runFor(BEAT_PACE_MS);
  }
}

/** A signed-in tab with the microphone, whose SDK console lines are kept. */
async function signedIn(account: Account) {
  const logs: string[] = [];
  const tab = await signedInTab(browser, account, {
    permissions: ['microphone'],
    beforeLoad: async ({ context, page }) => {
      page.on('console', (message) => logs.push(message.text()));
      await context.addInitScript(WATCH);
      // Runs with the wall clock until a test moves it (`talk`).
      await context.clock.install();
    },
  });
  tabs.push(tab);
  const identity = identityOf(account);
  await expect
    .poll(async () => (await (await fetch(`${stack().urls.twilio}/`)).text()).includes(`${identity} (1 device)`), WAIT)
    .toBe(true);
  await phoneReady(account);
  return { page: tab.page, logs };
}

/** A call from the phone, answered in the page: the Active Call panel with its timer. */
async function answeredCall(page: Page) {
  const call = await callFromPhone({ from: CALLER, to: number });
  const ringing = await seen(page.getByRole('region', { name: 'Incoming Call' }));
  await ringing.getByRole('button', { name: 'Answer' }).click();
  const active = await seen(page.getByRole('region', { name: 'Active Call' }));
  const timer = await seen(active.getByRole('timer', { name: 'Call duration' }));
  return { sid: call.sid, active, timer };
}

/** What the emulator has received of the browser's microphone on the call. */
const audioFromBrowser = async (sid: string) => (await emulatorCall(sid)).media.client?.received.audioPackets ?? 0;

describe('a call that lasts', () => {
  it(`holds an answered call past 0:${HELD_SECONDS} without ever losing the connection, then ends it; Call History has its true duration`, async () => {
    const { page, logs } = await signedIn(owner);
    const { sid, active, timer } = await answeredCall(page);

    // The user's view of time passing: the timer reaches 0:30, twice the SDK's 15 s without a word.
    await talk(page, HELD_SECONDS * 1000);
    await timer.filter({ hasText: PAST_HELD }).waitFor();
    expect(await active.isVisible()).toBe(true);
    expect(logs.filter((line) => line.includes('No messages received'))).toEqual([]);
    expect((await emulatorCall(sid)).status).toBe('in-progress');
    const heard = await audioFromBrowser(sid);
    await expect.poll(() => audioFromBrowser(sid), WAIT).toBeGreaterThan(heard);
    expect(await lostConnectionShown(page)).toEqual([]);

    await active.getByRole('button', { name: 'End' }).click();
    await seen(page.getByRole('button', { name: 'Open dialer' }));
    await expect.poll(async () => (await emulatorCall(sid)).status, WAIT).toBe('completed');
    expect(await lostConnectionShown(page)).toEqual([]);

    let stored: Call | undefined;
    await expect
      .poll(async () => {
        stored = (await listCalls(owner)).body.data.calls.find((c) => c.providerCallId === sid);
        return stored?.callStatus;
      }, WAIT)
      .toBe('COMPLETED');
    const seconds = stored?.durationSeconds ?? 0;
    expect(seconds).toBeGreaterThanOrEqual(HELD_SECONDS);
    await page.goto(web('/calls'));
    const row = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').filter({ hasText: '(415) 555-0123' });
    await seen(row.getByText('Completed'));
    await seen(row.getByText(`Duration ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`, { exact: true }));
  });

  it('a signalling connection lost mid-call comes back, the call is resumed and goes on until the caller hangs up', async () => {
    const { page, logs } = await signedIn(owner);
    const { sid, active } = await answeredCall(page);
    const heard = await audioFromBrowser(sid);
    await expect.poll(() => audioFromBrowser(sid), WAIT).toBeGreaterThan(heard);

    // The connection goes (the SDK sees its socket close), and the widget says so.
    await page.evaluate(() => (window as unknown as { __signalling: WebSocket[] }).__signalling.at(-1)?.close());
    await expect.poll(() => lostConnectionShown(page), WAIT).toEqual(LOST_CONNECTION);
    // The SDK reconnects and resumes its call with the reconnect token (its Call logs this on the answer).
    await expect.poll(() => logs.some((line) => line.includes('Signaling Connection reestablished.')), WAIT).toBe(true);
    expect(await active.isVisible()).toBe(true);
    expect((await emulatorCall(sid)).status).toBe('in-progress');
    const before = await audioFromBrowser(sid);
    await expect.poll(() => audioFromBrowser(sid), WAIT).toBeGreaterThan(before);

    // The call is the new socket's: the caller hanging up reaches the widget.
    await hangUpCall(sid);
    await seen(page.getByRole('button', { name: 'Open dialer' }));
    expect(await page.getByRole('region', { name: 'Active Call' }).count()).toBe(0);
  });

  it('a call goes on through the renewal of the voice token: the device keeps its registration under the new one', async () => {
    const { page, logs } = await signedIn(owner);
    // The tokens the page fetched after the first, with when each came.
    const renewals: { token: string; atMs: number }[] = [];
    page.on('response', async (res) => {
      if (isPathOf(endpoints.voiceToken.path, res.url()) && res.status() === 200)
        renewals.push({ token: ((await res.json()) as { data: { token: string } }).data.token, atMs: Date.now() });
    });
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('switchboard.user.voiceToken') ?? 'null'));
    const first = decodeJwt(stored.token as string);
    expect(Number(first.exp) - Number(first.iat)).toBe(BROWSER_VOICE_TOKEN_TTL_SECONDS);
    const { sid, active } = await answeredCall(page);
    const answeredAtMs = Date.now();

    // The SDK warns 10 s before the end (tokenWillExpire); the softphone fetches a new token for the
    // device in the middle of the call (not before it: the lifetime leaves the call time to be answered).
    const warned = async () => logs.some((line) => line.includes('#tokenWillExpire'));
    await talk(page, BROWSER_VOICE_TOKEN_TTL_SECONDS * 1000, warned);
    await expect.poll(warned, WAIT).toBe(true);
    await expect.poll(() => renewals.length, WAIT).toBeGreaterThan(0);
    expect(renewals[0]?.atMs).toBeGreaterThan(answeredAtMs);
    expect(Number(decodeJwt(renewals[0]?.token ?? '').exp)).toBeGreaterThan(Number(first.exp));

    // The SDK registers again every 30 s, and the emulator, as Twilio, refuses a registration on an
    // expired token: once the stack's clock is past the first token's end, a registration the device
    // sends from then on and the emulator accepts ('ready') was made with the new token.
    const firstEndMs = Number(first.exp) * 1000;
    await talk(page, Math.max(0, firstEndMs - (await stackClock()).nowMs + 1000));
    expect((await stackClock()).nowMs).toBeGreaterThan(firstEndMs);
    const from = (await framesOf(page)).length;
    const since = async () => (await framesOf(page)).slice(from);
    const registeredAgain = async () => {
      const frames = await since();
      const sent = frames.indexOf('out:register');
      return sent >= 0 && frames.indexOf('in:ready', sent) > sent;
    };
    await talk(page, REGISTRATION_INTERVAL_MS + 2 * BEAT_PACE_MS, registeredAgain);
    await expect.poll(registeredAgain, WAIT).toBe(true);
    expect((await since()).filter((frame) => frame === 'in:error')).toEqual([]);

    // The call never noticed: on, with audio from the browser, no lost connection, no token error.
    expect(await active.isVisible()).toBe(true);
    expect((await emulatorCall(sid)).status).toBe('in-progress');
    const heard = await audioFromBrowser(sid);
    await expect.poll(() => audioFromBrowser(sid), WAIT).toBeGreaterThan(heard);
    expect((await (await fetch(`${stack().urls.twilio}/`)).text()).includes(`${identityOf(owner)} (1 device)`)).toBe(true);
    expect(logs.filter((line) => /AccessTokenExpired|31205/.test(line))).toEqual([]);
    expect(await lostConnectionShown(page)).toEqual([]);

    await active.getByRole('button', { name: 'End' }).click();
    await expect.poll(async () => (await emulatorCall(sid)).status, WAIT).toBe('completed');
  });
});
