import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import type { ProviderRecord } from '../../functions/settings/records';
import { createGateway } from '../../local/gateway';
import { quietLogger } from '../../local/log';
import { freePort } from '../../local/ports';
import type { Channel, Provider } from '../../shared/contract/settings';
import { type Account, signUp, stack } from '../support/api';
import { testTable } from '../support/table';
import { type EmulatorNumber, newTwilioAccount, setTwilioFaults, type TwilioAccount, twilioGet } from '../support/twilio';

/**
 * A slow Twilio against the functions' timeouts: a gateway of this file's own, with Twilio routes
 * stopped after 1.5 s instead of 29 s, in front of the shared DynamoDB Local and Twilio emulator.
 */
const TWILIO_ROUTE_TIMEOUT_MS = 1_500;
/** Per Twilio call: two sequential calls already exceed the timeout. */
const TWILIO_DELAY_MS = 1_000;

let gatewayUrl = '';
let closeGateway: () => Promise<void> = async () => {};

beforeAll(async () => {
  const { env } = stack();
  const port = await freePort();
  const gateway = createGateway({
    log: quietLogger,
    environment: { ...(process.env as Record<string, string>), ...env },
    originSecret: env.ORIGIN_SECRET,
    timeoutMs: (route) => (route.timeoutSeconds ? TWILIO_ROUTE_TIMEOUT_MS : 10_000),
  });
  await gateway.listen(port);
  gatewayUrl = `http://127.0.0.1:${port}`;
  closeGateway = gateway.close;
});
afterAll(() => closeGateway());

async function call<T>(account: Account, method: string, path: string, body?: unknown) {
  const res = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${account.tokens.accessToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: T; message?: string } };
}

/** Slows this Twilio account only; setting it again lets held requests through first. */
const twilioLatency = (account: TwilioAccount, delayMs: number) =>
  setTwilioFaults(account.accountSid, delayMs ? { rest: { delayMs } } : {});

const connect = (account: Account, twilio: TwilioAccount) =>
  call<{ provider: Provider }>(account, 'POST', '/api/v1/providers/twilio', {
    accountSid: twilio.accountSid,
    authToken: twilio.authToken,
  });

const importAll = (account: Account, providerId: string, twilio: TwilioAccount) =>
  call<{ channels: Channel[] }>(account, 'POST', `/api/v1/providers/${providerId}/import-channels`, {
    numbers: twilio.numbers.map((n) => ({ sid: n.sid, phoneNumber: n.phone_number, capabilities: { voice: true, sms: true } })),
  });

const numbersOf = async (twilio: TwilioAccount) =>
  (await twilioGet<{ incoming_phone_numbers: EmulatorNumber[] }>(twilio, '/IncomingPhoneNumbers.json')).incoming_phone_numbers;

const urlsOf = (numbers: EmulatorNumber[]) =>
  numbers.map((n) => ({ sid: n.sid, sms: n.sms_url, voice: n.voice_url, status: n.status_callback }));

/**
 * middy answers just before Lambda would stop the function (it reads the remaining time from the
 * context), so the caller gets the error envelope rather than API Gateway's bare 500.
 */
const TIMED_OUT = {
  status: 500,
  body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' } },
};

describe('a Twilio slower than the function timeout', () => {
  it('stops connect with the error envelope; connecting again cleans up and connects once', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    await twilioLatency(twilio, TWILIO_DELAY_MS);
    expect(await connect(account, twilio)).toEqual(TIMED_OUT);
    await twilioLatency(twilio, 0);

    const again = await connect(account, twilio);
    expect(again.status).toBe(201);
    const apiKeys = await twilioGet<{ keys: { sid: string; friendly_name: string }[] }>(twilio, '/Keys.json');
    const apps = await twilioGet<{ applications: { sid: string; friendly_name: string }[] }>(twilio, '/Applications.json');
    const name = `Switchboard ${again.body.data.provider.id}`;
    expect(apiKeys.keys.map((k) => k.friendly_name)).toEqual([name]);
    expect(apps.applications.map((a) => a.friendly_name)).toEqual([name]);
    const providers = await call<{ providers: Provider[] }>(account, 'GET', '/api/v1/providers');
    expect(providers.body.data.providers.map((p) => p.id)).toEqual([again.body.data.provider.id]);
  });

  it('stops an import mid-way; importing again finishes it with the URLs from before, which disconnect puts back', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const before = urlsOf(await numbersOf(twilio));
    const provider = (await connect(account, twilio)).body.data.provider;

    await twilioLatency(twilio, TWILIO_DELAY_MS);
    expect(await importAll(account, provider.id, twilio)).toEqual(TIMED_OUT);
    await twilioLatency(twilio, 0);
    // The stopped import re-pointed numbers it never saved as channels.
    expect(urlsOf(await numbersOf(twilio))).not.toEqual(before);

    const again = await importAll(account, provider.id, twilio);
    expect(again.status).toBe(200);
    expect(again.body.data.channels).toHaveLength(twilio.numbers.length);

    // Every number now points at the base recorded on the provider, which its channel records too.
    const { client, tableName } = testTable();
    const stored = (
      await client.send(new GetCommand({ TableName: tableName, Key: keys.provider(account.company.id, provider.id) }))
    ).Item as ProviderRecord;
    expect(stored.webhookBaseUrl).toBe(stack().env.WEBHOOK_BASE_URL);
    for (const n of await numbersOf(twilio)) {
      if (n.sms_url) expect(n.sms_url.startsWith(`${stored.webhookBaseUrl}/${stored.webhookId}/`)).toBe(true);
    }

    expect((await call(account, 'DELETE', `/api/v1/providers/${provider.id}`)).status).toBe(200);
    expect(urlsOf(await numbersOf(twilio))).toEqual(before);
  });

  it('puts back the numbers of an import that was stopped and never retried when disconnecting', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const before = urlsOf(await numbersOf(twilio));
    const provider = (await connect(account, twilio)).body.data.provider;

    await twilioLatency(twilio, TWILIO_DELAY_MS);
    expect(await importAll(account, provider.id, twilio)).toEqual(TIMED_OUT);
    await twilioLatency(twilio, 0);

    expect((await call(account, 'DELETE', `/api/v1/providers/${provider.id}`)).status).toBe(200);
    expect(urlsOf(await numbersOf(twilio))).toEqual(before);
  });
});
