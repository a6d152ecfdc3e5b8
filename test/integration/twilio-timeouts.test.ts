import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import type { ProviderRecord } from '../../functions/settings/records';
import { type Account, type ApiResponse, signUp, stack } from '../support/api';
import { endpoints } from '../support/endpoints';
import { ownGateway } from '../support/own-gateway';
import { testTable } from '../support/table';
import { type EmulatorNumber, newTwilioAccount, setTwilioFaults, type TwilioAccount, twilioGet } from '../support/twilio';

/**
 * A slow Twilio against the functions' timeouts: a gateway of this file's own, with Twilio routes
 * stopped after 3 s instead of 29 s, in front of the shared DynamoDB Local and Twilio emulator. A
 * Twilio call gives up in time for the route to answer 504 and undo what it can.
 */
const TWILIO_ROUTE_TIMEOUT_MS = 3_000;
/** Longer than any one call may take within that timeout. */
const TWILIO_DELAY_MS = 3_000;

const gateway = ownGateway({ timeoutMs: (route) => (route.timeoutSeconds ? TWILIO_ROUTE_TIMEOUT_MS : 10_000) });

/** Holds the next request of this Twilio account to a path (a create, one number's update); {} lets it through. */
const slowOnce = (account: TwilioAccount, path: string) =>
  setTwilioFaults(account.accountSid, { rest: { delayMs: TWILIO_DELAY_MS, times: 1, path } });
const releaseHeld = (account: TwilioAccount) => setTwilioFaults(account.accountSid, {});

/** The answer's status and envelope, which the assertions compare whole. */
const statusAndBody = <T>({ status, body }: ApiResponse<T>) => ({ status, body });

const connect = (account: Account, twilio: TwilioAccount) =>
  gateway
    .callRoute(endpoints.connectTwilio, {
      token: account.tokens.accessToken,
      body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
    })
    .then(statusAndBody);

const importAll = (account: Account, providerId: string, twilio: TwilioAccount) =>
  gateway
    .callRoute(endpoints.importChannels, {
      params: { id: providerId },
      token: account.tokens.accessToken,
      body: {
        numbers: twilio.numbers.map((n) => ({
          sid: n.sid,
          phoneNumber: n.phone_number,
          capabilities: { voice: true, sms: true },
        })),
      },
    })
    .then(statusAndBody);

const numbersOf = async (twilio: TwilioAccount) =>
  (await twilioGet<{ incoming_phone_numbers: EmulatorNumber[] }>(twilio, '/IncomingPhoneNumbers.json')).incoming_phone_numbers;

const urlsOf = (numbers: EmulatorNumber[]) =>
  numbers.map((n) => ({ sid: n.sid, sms: n.sms_url, voice: n.voice_url, status: n.status_callback }));

const timedOut = (action: string) => ({
  status: 504,
  body: {
    success: false,
    error: { code: 'PROVIDER_TIMEOUT', message: `Twilio did not answer in time to ${action}. Please try again.` },
  },
});

describe('a Twilio slower than the function timeout', () => {
  it('answers connect 504; what Twilio made late stays remembered (hidden), and connecting again cleans up and connects once', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    await slowOnce(twilio, '/Applications.json');
    expect(await connect(account, twilio)).toEqual(timedOut('create the TwiML application'));
    await releaseHeld(twilio);

    // The key was deleted; the application Twilio created after the function gave up is remembered
    // by the provider record, which stays hidden (not connected) until a connect or disconnect sweeps it.
    const late = await twilioGet<{ applications: { sid: string; friendly_name: string }[] }>(twilio, '/Applications.json');
    expect((await twilioGet<{ keys: unknown[] }>(twilio, '/Keys.json')).keys).toEqual([]);
    expect(late.applications).toHaveLength(1);
    const lateProviderId = late.applications[0]?.friendly_name.replace('Switchboard ', '') ?? '';
    const { client, tableName } = testTable();
    const hidden = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.provider(account.company.id, lateProviderId) }),
    );
    expect(hidden.Item).toMatchObject({ status: 'CONNECTING', accountSid: twilio.accountSid });
    expect((await gateway.callRoute(endpoints.listProviders, { token: account.tokens.accessToken })).body.data.providers).toEqual(
      [],
    );

    const again = await connect(account, twilio);
    expect(again.status).toBe(201);
    const apiKeys = await twilioGet<{ keys: { sid: string; friendly_name: string }[] }>(twilio, '/Keys.json');
    const apps = await twilioGet<{ applications: { sid: string; friendly_name: string }[] }>(twilio, '/Applications.json');
    const name = `Switchboard ${again.body.data.provider.id}`;
    expect(apiKeys.keys.map((k) => k.friendly_name)).toEqual([name]);
    expect(apps.applications.map((a) => a.friendly_name)).toEqual([name]);
    const providers = await gateway.callRoute(endpoints.listProviders, { token: account.tokens.accessToken });
    expect(providers.body.data.providers.map((p) => p.id)).toEqual([again.body.data.provider.id]);
    const gone = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.provider(account.company.id, lateProviderId) }),
    );
    expect(gone.Item).toBeUndefined();
  });

  it('answers an import 504 when one number’s update is not answered; importing again finishes it with the URLs from before, which disconnect puts back', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const before = urlsOf(await numbersOf(twilio));
    const provider = (await connect(account, twilio)).body.data.provider;
    const slow = twilio.numbers[1] as TwilioAccount['numbers'][number];

    await slowOnce(twilio, `/IncomingPhoneNumbers/${slow.sid}.json`);
    expect(await importAll(account, provider.id, twilio)).toEqual(timedOut(`update ${slow.phone_number}`));
    await releaseHeld(twilio);
    // Every channel written has its number pointing at it; the slow number has none yet, though
    // Twilio acted on its update late: its URLs from before are recorded for the next import or a disconnect.
    const channels = (await gateway.callRoute(endpoints.listChannels, { token: account.tokens.accessToken })).body.data.channels;
    expect(channels.map((c) => c.identifier)).not.toContain(slow.phone_number);
    expect(urlsOf(await numbersOf(twilio))).not.toEqual(before);

    const again = await importAll(account, provider.id, twilio);
    expect(again.status).toBe(200);
    expect(
      (await gateway.callRoute(endpoints.listChannels, { token: account.tokens.accessToken })).body.data.channels
        .map((c) => c.identifier)
        .sort(),
    ).toEqual(twilio.numbers.map((n) => n.phone_number).sort());

    // Every number now points at the base recorded on the provider, which its channel records too.
    const { client, tableName } = testTable();
    const stored = (
      await client.send(new GetCommand({ TableName: tableName, Key: keys.provider(account.company.id, provider.id) }))
    ).Item as ProviderRecord;
    expect(stored.webhookBaseUrl).toBe(stack().env.WEBHOOK_BASE_URL);
    for (const n of await numbersOf(twilio)) {
      if (n.sms_url) expect(n.sms_url.startsWith(`${stored.webhookBaseUrl}/${stored.webhookId}/`)).toBe(true);
    }

    expect(
      (await gateway.callRoute(endpoints.disconnectProvider, { params: { id: provider.id }, token: account.tokens.accessToken }))
        .status,
    ).toBe(200);
    expect(urlsOf(await numbersOf(twilio))).toEqual(before);
  });

  it('puts back the numbers of an import that was stopped and never retried when disconnecting', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const before = urlsOf(await numbersOf(twilio));
    const provider = (await connect(account, twilio)).body.data.provider;
    const slow = twilio.numbers[0] as TwilioAccount['numbers'][number];

    await slowOnce(twilio, `/IncomingPhoneNumbers/${slow.sid}.json`);
    expect((await importAll(account, provider.id, twilio)).status).toBe(504);
    await releaseHeld(twilio);

    expect(
      (await gateway.callRoute(endpoints.disconnectProvider, { params: { id: provider.id }, token: account.tokens.accessToken }))
        .status,
    ).toBe(200);
    expect(urlsOf(await numbersOf(twilio))).toEqual(before);
  });
});
