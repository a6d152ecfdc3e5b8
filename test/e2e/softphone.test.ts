import type { Browser, BrowserContextOptions, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../../shared/contract/calls';
import { isPathOf } from '../../shared/contract/route';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { type Account, signUp } from '../support/api';
import { gone, launchBrowser, PHONE, seen, signedInTab, tabsClosedAfterEach, web } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import { answerCall, callFromPhone, type EmulatorCall, emulatorCall, type TwilioAccount, twilioGet } from '../support/twilio';
import { addInboxMember, deviceRegistered, listCalls, routeChannel } from '../support/voice';

/**
 * The floating call widget in Chromium with the real Voice SDK. One company: an owner and an agent in
 * the Support inbox that answers the company's number; and a company without a provider.
 */
const CALLER = '+14155550123';
const UK_NUMBER = '+442079460958';
/** expect.poll waits 1 s unless told: calls, media and callbacks take longer on a busy machine. */
const WAIT = { timeout: 30_000 } as const;

let browser: Browser;
let owner: Account;
let agent: Account;
let noProvider: Account;
let line: { channel: { identifier: string }; twilio: TwilioAccount };
const tabs = tabsClosedAfterEach();

beforeAll(async () => {
  // A fake microphone (it beeps); whether a page may use it is each context's microphone permission.
  browser = await launchBrowser({ fakeMicrophone: true, denyPermissionPrompts: true });
  [owner, noProvider] = await Promise.all([signUp({ name: 'Olive Owner' }), signUp({ name: 'Nadia Noprovider' })]);
  const [connected, inbox, colleague] = await Promise.all([
    withChannel(owner),
    createInbox(owner, 'Support'),
    addTeamMember(owner, { name: 'Alan Agent' }),
  ]);
  agent = colleague;
  line = connected;
  await Promise.all([addInboxMember(owner, inbox.id, owner.user.id), addInboxMember(owner, inbox.id, agent.user.id)]);
  await routeChannel(owner, connected.channel, 'INBOX', inbox.id);
});

afterAll(async () => {
  await browser?.close();
});

/**
 * Test-side only: every RTCPeerConnection the page makes is kept, so the test can read what the
 * browser received (getStats) as the emulator's counts show what it sent.
 */
const KEEP_PEERS = `(() => {
  const Native = window.RTCPeerConnection;
  window.__peers = [];
  window.RTCPeerConnection = class extends Native {
    constructor(...args) { super(...args); window.__peers.push(this); }
  };
})();`;

/** A signed-in tab of its own (own storage, so each agent is one person), with the microphone unless told otherwise. */
async function signedIn(account: Account, options: BrowserContextOptions & { path?: string } = {}): Promise<Page> {
  const tab = await signedInTab(browser, account, {
    permissions: ['microphone'],
    ...options,
    beforeLoad: ({ context }) => context.addInitScript(KEEP_PEERS),
  });
  tabs.push(tab);
  return tab.page;
}

/** Audio RTP packets the page's latest peer connection received. */
const receivedByBrowser = (page: Page) =>
  page.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    const peer = peers.at(-1);
    if (!peer) return 0;
    let packets = 0;
    for (const report of (await peer.getStats()).values()) {
      if (report.type === 'inbound-rtp' && report.kind === 'audio') packets += report.packetsReceived;
    }
    return packets;
  });

/** The emulator's side of the browser's media for a call: what it received from and sent to the softphone. */
const clientMedia = async (sid: string) =>
  (await emulatorCall(sid)) as EmulatorCall & {
    media: { client?: { codec: string | null; received: { packets: number; audioPackets: number }; sent: { packets: number } } };
  };

/** Waits until the audio from the softphone stops growing (a read equal to the one before it); returns the count. */
async function audioSettles(sid: string): Promise<number> {
  let last = -1;
  await expect
    .poll(
      async () => {
        const now = (await clientMedia(sid)).media.client?.received.audioPackets ?? 0;
        const settled = now === last;
        last = now;
        return settled;
      },
      // Longer than the fake microphone's silence between two beeps.
      { timeout: 30_000, interval: 1_500 },
    )
    .toBe(true);
  return last;
}

const digitsOf = (call: EmulatorCall) => [call, ...call.legs].flatMap((c) => c.digits.map((d) => d.digits)).join('');

const openDialer = async (page: Page) => {
  await (await seen(page.getByRole('button', { name: 'Open dialer' }))).click();
  return seen(page.getByRole('dialog', { name: 'Make a call' }));
};

describe('the floating call widget', () => {
  it('stays hidden, without loading the Voice SDK, when the company has no provider', async () => {
    const scripts: string[] = [];
    let token: Promise<Response> | undefined;
    const tab = await signedInTab(browser, noProvider, {
      beforeLoad: ({ page }) => {
        page.on('request', (request) => scripts.push(request.url()));
        token = page.waitForResponse((res) => isPathOf(endpoints.voiceToken.path, res.url()));
      },
    });
    tabs.push(tab);
    const { page } = tab;
    const answer = await (token as Promise<Response>);
    expect(answer.status()).toBe(404);
    expect((await answer.json()).error.code).toBe('PROVIDER_NOT_FOUND');
    await seen(page.getByRole('heading', { name: /Welcome/ }));
    expect(await page.getByRole('button', { name: 'Open dialer' }).count()).toBe(0);
    expect(await page.getByRole('status', { name: 'Phone status' }).count()).toBe(0);
    expect(scripts.filter((url) => url.includes('voice-sdk'))).toEqual([]);
    expect(tab.errors).toEqual([]);
  });

  // What the dialer says to a number it refuses is the component test's subject (softphone-widget.test.tsx).
  it('formats a number typed for the chosen country in a dialer that fits a phone; Escape gives focus back', async () => {
    const page = await signedIn(agent, { viewport: PHONE });
    const dialer = await openDialer(page);
    await dialer.getByLabel('Country').selectOption('GB');
    const number = dialer.getByLabel('Phone number');
    await number.pressSequentially('02079460958');
    expect(await number.inputValue()).toBe('020 7946 0958');
    await expect.poll(() => dialer.getByLabel('Caller ID').inputValue(), WAIT).toBe(line.channel.identifier);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const box = await dialer.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => dialer.count(), WAIT).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), WAIT).toBe('Open dialer');
  });

  it('without the microphone, a call fails with the permission-denied message', async () => {
    const page = await signedIn(agent, { permissions: [] });
    await deviceRegistered(agent);
    const dialer = await openDialer(page);
    await dialer.getByLabel('Phone number').pressSequentially('4155550142');
    await dialer.getByRole('button', { name: 'Call' }).click();
    await seen(page.getByRole('alert').filter({ hasText: 'Microphone permission denied' }));
    await seen(page.getByRole('button', { name: 'Open dialer' }));
  });
});

describe('calls with the real Voice SDK', () => {
  it('rings every agent; the one who answers talks, sends digits, mutes and ends; Call History has it', async () => {
    const [a, b] = await Promise.all([signedIn(owner), signedIn(agent)]);
    await Promise.all([deviceRegistered(owner), deviceRegistered(agent)]);
    const call = await callFromPhone({ from: CALLER, to: line.channel.identifier });

    // The call rings for RING_TIMEOUT_SECONDS (25 s): only what must be seen while it rings comes
    // before the answer (the panel's accessibility is in accessibility.test.ts).
    const ringingA = await seen(a.getByRole('region', { name: 'Incoming Call' }));
    const ringingB = await seen(b.getByRole('region', { name: 'Incoming Call' }));
    for (const ringing of [ringingA, ringingB]) {
      await seen(ringing.getByText('(415) 555-0123'));
      await seen(ringing.getByText(`to ${formatPhoneNumber(line.channel.identifier)}`));
    }

    await ringingA.getByRole('button', { name: 'Answer' }).click();
    const active = await seen(a.getByRole('region', { name: 'Active Call' }));
    await gone(ringingB);
    await seen(b.getByRole('button', { name: 'Open dialer' }));
    await seen(active.getByRole('timer', { name: 'Call duration' }));

    // Audio both ways: the emulator hears the browser's microphone, the browser hears the emulator.
    await expect
      .poll(async () => (await clientMedia(call.sid)).media.client?.received.audioPackets ?? 0, WAIT)
      .toBeGreaterThan(0);
    await expect.poll(() => receivedByBrowser(a), WAIT).toBeGreaterThan(25);

    await active.getByRole('button', { name: 'Keypad' }).click();
    const pad = active.getByRole('group', { name: 'Keypad' });
    await pad.getByRole('button', { name: '1' }).click();
    await pad.getByRole('button', { name: '#' }).click();
    await expect.poll(async () => digitsOf(await emulatorCall(call.sid)), WAIT).toBe('1#');

    await active.getByRole('button', { name: 'Mute' }).click();
    await seen(active.getByRole('button', { name: 'Unmute' }));
    const muted = await audioSettles(call.sid);
    // Still flowing the other way, and for over 2 s (the fake microphone beeps every second) nothing from the muted one.
    const before = await receivedByBrowser(a);
    await expect.poll(() => receivedByBrowser(a), WAIT).toBeGreaterThan(before + 120);
    expect((await clientMedia(call.sid)).media.client?.received.audioPackets).toBe(muted);
    await active.getByRole('button', { name: 'Unmute' }).click();
    await expect
      .poll(async () => (await clientMedia(call.sid)).media.client?.received.audioPackets ?? 0, WAIT)
      .toBeGreaterThan(muted);

    await active.getByRole('button', { name: 'End' }).click();
    await seen(a.getByRole('button', { name: 'Open dialer' }));
    await expect.poll(async () => (await emulatorCall(call.sid)).status, WAIT).toBe('completed');
    expect(await b.getByRole('region', { name: /Call/ }).count()).toBe(0);

    let stored: Call | undefined;
    await expect
      .poll(async () => {
        stored = (await listCalls(owner)).body.data.calls.find((c) => c.providerCallId === call.sid);
        return stored?.callStatus;
      }, WAIT)
      .toBe('COMPLETED');
    expect(stored?.durationSeconds).toBeGreaterThan(0);
    await a.goto(web('/calls'));
    const row = a.getByRole('list', { name: 'Calls' }).getByRole('listitem').filter({ hasText: '(415) 555-0123' });
    await seen(row.getByText('Completed'));
    const seconds = stored?.durationSeconds ?? 0;
    await seen(row.getByText(`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`));
  });

  it('announces a call without taking focus from typing; Alt+Shift+A, then Enter, answers; Mute, Hold and Keypad show their icons; focus follows the call', async () => {
    const a = await signedIn(owner, { path: '/contacts' });
    // A call rings the page's phone once it is ready (docs/product.md §10.5).
    await deviceRegistered(owner);
    const search = a.getByRole('searchbox', { name: 'Search contacts' });
    await search.pressSequentially('Gra');
    const call = await callFromPhone({ from: CALLER, to: line.channel.identifier });

    await seen(a.getByRole('status').filter({ hasText: 'Incoming call from (415) 555-0123' }));
    const ringing = a.getByRole('region', { name: 'Incoming Call' });
    const answer = ringing.getByRole('button', { name: 'Answer' });
    expect(await answer.getAttribute('aria-keyshortcuts')).toBe('Alt+Shift+A');
    await seen(ringing.getByText('Alt+Shift+A, then Enter, answers'));
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await search.inputValue()).toBe('Gra');

    await a.keyboard.press('Alt+Shift+A');
    await expect.poll(() => answer.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await search.inputValue()).toBe('Gra');
    await a.keyboard.press('Enter');
    const active = await seen(a.getByRole('region', { name: 'Active Call' }));
    await expect.poll(async () => (await emulatorCall(call.sid)).status, WAIT).toBe('in-progress');
    await expect.poll(() => active.evaluate((el) => el === document.activeElement)).toBe(true);

    // Mute, Hold and Keypad each show their icon, and their label inside the button's padding.
    for (const name of ['Mute', 'Hold', 'Keypad']) {
      const fit = await active.getByRole('button', { name, exact: true }).evaluate((button) => {
        const box = button.getBoundingClientRect();
        const style = getComputedStyle(button);
        const label = document.createRange();
        label.selectNodeContents([...button.childNodes].find((n) => n.nodeType === Node.TEXT_NODE) ?? button);
        const text = label.getBoundingClientRect();
        return {
          icon: button.querySelector('svg')?.getBoundingClientRect().width ?? 0,
          inside:
            text.left >= box.left + Number.parseFloat(style.paddingLeft) - 0.5 &&
            text.right <= box.right - Number.parseFloat(style.paddingRight) + 0.5,
        };
      });
      expect(fit, name).toEqual({ icon: 16, inside: true });
    }

    // Mute, Hold, Keypad, End.
    for (let i = 0; i < 4; i++) await a.keyboard.press('Tab');
    expect(await active.getByRole('button', { name: 'End' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await a.keyboard.press('Enter');
    const callButton = a.getByRole('button', { name: 'Open dialer' });
    await expect.poll(() => callButton.evaluate((el) => el === document.activeElement), WAIT).toBe(true);
    await expect.poll(async () => (await emulatorCall(call.sid)).status, WAIT).toBe('completed');
  });

  it('calls a UK number typed with GB selected, in E.164 from the caller ID, and talks once it answers', async () => {
    const a = await signedIn(owner);
    await deviceRegistered(owner);
    const dialer = await openDialer(a);
    await dialer.getByLabel('Country').selectOption('GB');
    const number = dialer.getByLabel('Phone number');
    await number.pressSequentially('02079460958');
    expect(await number.inputValue()).toBe('020 7946 0958');
    await dialer.getByRole('button', { name: 'Call' }).click();
    const active = await seen(a.getByRole('region', { name: 'Active Call' }));
    await seen(active.getByText('Calling...'));

    const ringingLeg = async () => {
      const { calls } = await twilioGet<{ calls: { sid: string; status: string; from: string }[] }>(
        line.twilio,
        `/Calls.json?${new URLSearchParams({ To: UK_NUMBER })}`,
      );
      return calls.find((c) => c.status === 'ringing');
    };
    await expect.poll(async () => (await ringingLeg())?.from, WAIT).toBe(line.channel.identifier);
    const leg = await ringingLeg();
    if (!leg) throw new Error('the UK number is not ringing');
    const answered = await answerCall(leg.sid, UK_NUMBER);
    const root = answered.parent_call_sid ?? answered.sid;

    await seen(active.getByRole('timer', { name: 'Call duration' }));
    await seen(active.getByText('+44 20 7946 0958'));
    await expect.poll(async () => (await clientMedia(root)).media.client?.received.audioPackets ?? 0, WAIT).toBeGreaterThan(0);
    await expect.poll(() => receivedByBrowser(a), WAIT).toBeGreaterThan(25);

    await active.getByRole('button', { name: 'End' }).click();
    await seen(a.getByRole('button', { name: 'Open dialer' }));
    await expect.poll(async () => (await emulatorCall(root)).status, WAIT).toBe('completed');
  });
});
