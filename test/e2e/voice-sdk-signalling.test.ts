import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import AccessToken from 'twilio/lib/jwt/AccessToken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../support/api';
import { launchBrowser, openTab } from '../support/browser';
import { newTwilioAccount } from '../support/twilio';

/** The SDK's own browser bundle: the protocol is checked against the real client, not a copy of it. */
const SDK_BUNDLE = join(import.meta.dirname, '../../node_modules/@twilio/voice-sdk/dist/twilio.min.js');
const SOUNDS = ['incoming', 'outgoing', 'disconnect', ...'0123456789sh'.split('').map((d) => `dtmf${d}`)];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function accessTokens() {
  const account = await newTwilioAccount();
  const res = await fetch(`${stack().urls.twilio}/2010-04-01/Accounts/${account.accountSid}/Keys.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'FriendlyName=softphone',
  });
  const key = (await res.json()) as { sid: string; secret: string };
  return (ttl: number) => {
    const token = new AccessToken(account.accountSid, key.sid, key.secret, { identity: 'alice', ttl });
    token.addGrant(new AccessToken.VoiceGrant({ incomingAllow: true }));
    return token.toJwt();
  };
}

describe("the Voice SDK against the Twilio emulator's signalling", () => {
  it('registers with a valid token (identity, token renewal), unregisters, and reports expired and invalid tokens as 20104 and 20101', async () => {
    const token = await accessTokens();
    const { context, page, errors } = await openTab(browser);
    const offline: string[] = [];
    // Every request the SDK makes stays on this machine: none to Twilio's CDN or gateways.
    page.on('request', (request) => {
      if (!/^(https?|wss?):\/\/(localhost|127\.0\.0\.1)[:/]/.test(request.url())) offline.push(request.url());
    });
    await page.goto(stack().urls.signallingTrust);
    await page.addScriptTag({ path: SDK_BUNDLE });
    const host = new URL(stack().urls.signalling).host;
    const outcome = await page.evaluate(
      async ({ valid, expired, invalid, host, names }) => {
        type Device = {
          state: string;
          identity: string;
          on(event: string, listener: (arg: { code: number }) => void): void;
          register(): Promise<void>;
          unregister(): Promise<void>;
          destroy(): void;
        };
        const { Device } = (window as unknown as { Twilio: { Device: new (token: string, options: object) => Device } }).Twilio;
        const options = {
          chunderw: host,
          publishEvents: false,
          sounds: Object.fromEntries(names.map((n) => [n, `https://${host}/sounds/${n}.wav`])),
          // The token lives 600 s: tokenWillExpire comes 595 s early, i.e. at once.
          tokenRefreshMs: 595_000,
        };
        const device = new Device(valid, options);
        const willExpire = new Promise<boolean>((resolve) => device.on('tokenWillExpire', () => resolve(true)));
        await device.register();
        const registered = { state: device.state, identity: device.identity, tokenWillExpire: await willExpire };
        await device.unregister();
        const unregistered = device.state;
        device.destroy();
        const refusal = async (token: string) => {
          const refused = new Device(token, options);
          const code = new Promise<number>((resolve) => refused.on('error', (error) => resolve(error.code)));
          refused.register().catch(() => {});
          const result = await code;
          refused.destroy();
          return result;
        };
        return { registered, unregistered, expired: await refusal(expired), invalid: await refusal(invalid) };
      },
      { valid: token(600), expired: token(-60), invalid: 'not-a-token', host, names: SOUNDS },
    );
    expect(outcome).toEqual({
      registered: { state: 'registered', identity: 'alice', tokenWillExpire: true },
      unregistered: 'unregistered',
      expired: 20104,
      invalid: 20101,
    });
    expect(offline).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
