import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPathOf } from '../../shared/contract/route';
import { type Account, callRoute, signUp, stack } from '../support/api';
import { gone, launchBrowser, PHONE, seen, signedInTab, type Tab, tabsClosedAfterEach, web } from '../support/browser';
import { endpoints } from '../support/endpoints';
import { createInbox, withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import {
  advanceCall,
  answerCall,
  callFromPhone,
  hangUpCall,
  numbersByKind,
  type TwilioAccount,
  twilioGet,
} from '../support/twilio';
import { addInboxMember, exhaustVoiceTokens, identityOf, phoneReady, routeChannel } from '../support/voice';

/**
 * The softphone through a working day, in Chromium with the real Voice SDK against the emulator:
 * calls the far end gives up on, page loads that reuse one voice token, the token limit, and Twilio
 * disconnected and connected again while agents have the app open.
 */
const UK_NUMBER = '+442079460958';
const CALLER = '+14155550123';
/** expect.poll waits 1 s unless told: calls and registrations take longer on a busy machine. */
const WAIT = { timeout: 30_000 } as const;

let browser: Browser;
const tabs = tabsClosedAfterEach();

beforeAll(async () => {
  browser = await launchBrowser({ fakeMicrophone: true });
});

afterAll(async () => {
  await browser?.close();
});

/** A company whose number rings the Support inbox: the owner and, when asked, an agent. */
async function company(options: { agent?: boolean } = {}) {
  const owner = await signUp({ name: 'Olive Owner' });
  const [line, inbox, agent] = await Promise.all([
    withChannel(owner),
    createInbox(owner, 'Support'),
    options.agent ? addTeamMember(owner, { name: 'Alan Agent' }) : Promise.resolve(undefined),
  ]);
  for (const member of [owner, agent]) if (member) await addInboxMember(owner, inbox.id, member.user.id);
  await routeChannel(owner, line.channel, 'INBOX', inbox.id);
  return { owner, agent, line };
}

async function signedIn(account: Account, prepare?: (tab: Tab) => Promise<void>, path?: string): Promise<Tab> {
  const tab = await signedInTab(browser, account, { permissions: ['microphone'], beforeLoad: prepare, path });
  tabs.push(tab);
  return tab;
}

/** Waits until the emulator's status page lists the account's one device as registered. */
async function registered(account: Account) {
  const identity = identityOf(account);
  await expect
    .poll(async () => (await (await fetch(`${stack().urls.twilio}/`)).text()).includes(`${identity} (1 device)`), WAIT)
    .toBe(true);
  await phoneReady(account);
}

/** Dials a UK number from the widget and waits until it rings there; answers the ringing leg's SID. */
async function dialUk(page: Page, twilio: TwilioAccount): Promise<string> {
  await (await seen(page.getByRole('button', { name: 'Open dialer' }))).click();
  const dialer = await seen(page.getByRole('dialog', { name: 'Make a call' }));
  await dialer.getByLabel('Country').selectOption('GB');
  await dialer.getByLabel('Phone number').pressSequentially('02079460958');
  await dialer.getByRole('button', { name: 'Call' }).click();
  await seen(page.getByRole('region', { name: 'Active Call' }).getByText('Calling...'));
  const ringingLeg = async () => {
    const { calls } = await twilioGet<{ calls: { sid: string; status: string; parent_call_sid: string | null }[] }>(
      twilio,
      `/Calls.json?${new URLSearchParams({ To: UK_NUMBER, Status: 'ringing' })}`,
    );
    // The leg to the number (the caller's own call rings too until it is answered: answerOnBridge).
    return calls.find((c) => c.parent_call_sid)?.sid;
  };
  await expect.poll(ringingLeg, WAIT).toMatch(/^CA/);
  return (await ringingLeg()) ?? '';
}

const lastCall = (page: Page) => page.getByRole('status', { name: 'Last call' });

describe('calls the far end gives up on', () => {
  it('busy, then not answered: the widget goes back to idle saying so each time, and the next call connects', async () => {
    const { owner, line } = await company();
    const { page } = await signedIn(owner);
    await registered(owner);

    // The phone declines (the phone simulator's Hang up while it rings): busy.
    await hangUpCall(await dialUk(page, line.twilio), UK_NUMBER);
    await expect.poll(() => lastCall(page).textContent(), WAIT).toBe('Busy');
    await gone(page.getByRole('region', { name: 'Active Call' }));

    // Nobody picks up until the Dial's timeout.
    await advanceCall(await dialUk(page, line.twilio));
    await expect.poll(() => lastCall(page).textContent(), WAIT).toBe('No answer');
    await gone(page.getByRole('region', { name: 'Active Call' }));

    await answerCall(await dialUk(page, line.twilio), UK_NUMBER);
    const active = page.getByRole('region', { name: 'Active Call' });
    await seen(active.getByRole('timer', { name: 'Call duration' }));
    await active.getByRole('button', { name: 'End' }).click();
    await seen(page.getByRole('button', { name: 'Open dialer' }));
  });
});

describe('voice tokens', () => {
  it('six page loads ask for one voice token: the pages reuse it', async () => {
    const { owner } = await company();
    let requests = 0;
    const tab = await signedIn(owner, async ({ context }) => {
      // The pages' clock stands still, as if the six loads took a moment: this stack's voice tokens
      // live 50 s (BROWSER_VOICE_TOKEN_TTL_SECONDS), and a stored one is reused only with 2/3 of it left,
      // which a busy machine's six page loads outlast. The reuse is what is tested, not the lifetime.
      await context.clock.setFixedTime(Date.now());
      context.on('request', (request) => {
        if (request.method() === endpoints.voiceToken.method && isPathOf(endpoints.voiceToken.path, request.url())) requests++;
      });
    });
    // The signed-in app's first page load; five more, on different pages.
    await seen(tab.page.getByRole('button', { name: 'Open dialer' }));
    for (const path of ['/contacts', '/calls', '/conversations', '/settings/providers', '/dashboard']) {
      await tab.page.goto(web(path));
      await seen(tab.page.getByRole('button', { name: 'Open dialer' }));
    }
    await registered(owner);
    expect(requests).toBe(1);
  });

  it("past the limit, calling says the server's reason and when it tries again, and comes back by itself then", async () => {
    const { owner } = await company();
    const tokensBack = await exhaustVoiceTokens(owner);

    const { page } = await signedIn(owner, ({ context }) => context.clock.install());
    const card = await seen(page.getByRole('alert').filter({ hasText: 'Calling unavailable' }));
    await seen(card.getByText(/^Too many calling tokens requested\. Try again in [1-5] minutes?\.$/));
    await seen(card.getByText(/^Calling will try again by itself at \d{1,2}:\d{2}/));
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The window passes (on the server's table and on the page's clock): the widget tries again alone.
    await tokensBack();
    await page.clock.fastForward('06:00');
    await gone(card);
    await seen(page.getByRole('button', { name: 'Open dialer' }));
    await registered(owner);
  });
});

describe('Twilio disconnected and connected again', () => {
  it("the agent's open tab hides calling, then registers again on a new token and rings", async () => {
    const { owner, agent, line } = await company({ agent: true });
    if (!agent) throw new Error('no agent');
    const [ownerTab, agentTab] = await Promise.all([signedIn(owner, undefined, '/settings/providers'), signedIn(agent)]);
    const agentPage = agentTab.page;
    await seen(agentPage.getByRole('button', { name: 'Open dialer' }));
    await registered(agent);

    const page = ownerTab.page;
    await (await seen(page.getByRole('button', { name: 'Disconnect Twilio' }))).click();
    const confirm = await seen(page.getByRole('alertdialog', { name: 'Disconnect Twilio?' }));
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await seen(page.getByText('Twilio disconnected.'));
    // No provider, no calling: the agent's widget goes as it would without one.
    await gone(agentPage.getByRole('button', { name: 'Open dialer' }));

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const connect = await seen(page.getByRole('dialog', { name: 'Connect Twilio' }));
    await connect.getByLabel('Account SID').fill(line.twilio.accountSid);
    await connect.getByLabel('Auth token').fill(line.twilio.authToken);
    await connect.getByRole('button', { name: 'Connect', exact: true }).click();
    await gone(connect);
    await seen(page.getByText('Connected', { exact: true }));
    await importNumberAgain(owner, line.twilio);

    await seen(agentPage.getByRole('button', { name: 'Open dialer' }));
    await registered(agent);
    await callFromPhone({ from: CALLER, to: line.channel.identifier });
    await seen(agentPage.getByRole('region', { name: 'Incoming Call' }));
  });
});

/** The number the disconnect deactivated, imported under the new connection (its routing is kept). */
async function importNumberAgain(owner: Account, twilio: TwilioAccount) {
  const providers = await callRoute(endpoints.listProviders, { token: owner.tokens.accessToken });
  const provider = providers.body.data.providers[0];
  const { full } = numbersByKind(twilio);
  const imported = await callRoute(endpoints.importChannels, {
    params: { id: String(provider?.id) },
    token: owner.tokens.accessToken,
    body: { numbers: [{ sid: full.sid, phoneNumber: full.phone_number, capabilities: { voice: true, sms: true } }] },
  });
  expect(imported.body.data.channels).toHaveLength(1);
}
