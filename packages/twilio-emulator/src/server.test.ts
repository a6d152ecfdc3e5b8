import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quietLogger } from './log';
import { startTwilioEmulator, type TwilioEmulator } from './server';
import { freePort } from './test-harness';

const JSON_TYPE = { 'content-type': 'application/json' };
const demo = { accountSid: `AC${'d'.repeat(32)}`, authToken: 'e'.repeat(32) };

interface Credentials {
  username: string;
  password: string;
}

interface NumberResource {
  sid: string;
  account_sid: string;
  friendly_name: string;
  phone_number: string;
  capabilities: { voice: boolean; sms: boolean; mms: boolean; fax: boolean };
  voice_url: string;
  voice_method: string;
  sms_url: string;
  sms_method: string;
  status_callback: string;
  voice_application_sid: string;
  date_created: string;
  date_updated: string;
  uri: string;
}

interface NumberPage {
  incoming_phone_numbers: NumberResource[];
  page: number;
  page_size: number;
  start: number;
  end: number;
  uri: string;
  first_page_uri: string;
  next_page_uri: string | null;
  previous_page_uri: string | null;
}

interface EmulatedAccount {
  accountSid: string;
  authToken: string;
  friendlyName: string;
  numbers: NumberResource[];
  applications: { sid: string; voice_url: string }[];
  keys: { sid: string; friendly_name: string; secret?: string }[];
}

const accountOf = (account: { accountSid: string; authToken: string }): Credentials => ({
  username: account.accountSid,
  password: account.authToken,
});

function client(emulator: () => TwilioEmulator) {
  async function request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { auth?: Credentials; form?: Record<string, string>; account?: string } = {},
  ) {
    const account = options.account ?? options.auth?.username ?? demo.accountSid;
    // Paths of the API or the emulator are absolute; others are relative to the account.
    const absolute = path.startsWith('/2010-04-01/') || path.startsWith('/_emulator/');
    const url = `${emulator().url}${absolute ? path : `/2010-04-01/Accounts/${account}${path}`}`;
    const res = await fetch(url, {
      method,
      headers: {
        ...(options.auth
          ? { authorization: `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}` }
          : {}),
        ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: options.form ? new URLSearchParams(options.form).toString() : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  }
  async function newAccount() {
    const res = await request<EmulatedAccount>('POST', '/_emulator/accounts');
    expect(res.status).toBe(201);
    return res.body;
  }
  return { request, newAccount };
}

const demoAuth = accountOf(demo);

describe('Twilio emulator REST API', () => {
  let emulator: TwilioEmulator;
  const { request, newAccount } = client(() => emulator);

  beforeAll(async () => {
    emulator = await startTwilioEmulator({ port: await freePort(), demo, log: quietLogger });
  });
  afterAll(() => emulator.stop());
  afterEach(() => request('POST', '/_emulator/reset'));

  describe('authentication', () => {
    const authenticate = {
      code: 20003,
      message: 'Authenticate',
      more_info: 'https://www.twilio.com/docs/errors/20003',
      status: 401,
    };

    it('answers 401 20003 with a Basic challenge without credentials or with a wrong token', async () => {
      for (const auth of [undefined, { username: demo.accountSid, password: 'f'.repeat(32) }]) {
        const res = await request('GET', '/IncomingPhoneNumbers.json', { auth });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Basic realm="Twilio API"');
        expect(res.body).toEqual(authenticate);
      }
    });

    it("refuses another account's credentials, even valid ones, and accounts that do not exist", async () => {
      const other = await newAccount();
      const res = await request('GET', '/IncomingPhoneNumbers.json', { auth: accountOf(other), account: demo.accountSid });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(authenticate);
      const unknown = `AC${'0'.repeat(32)}`;
      expect((await request('GET', '.json', { auth: { username: unknown, password: demo.authToken } })).status).toBe(401);
    });

    it('accepts an API key of the account, as Twilio does, but not for the account itself or its keys', async () => {
      const created = await request<{ sid: string; secret: string }>('POST', '/Keys.json', {
        auth: demoAuth,
        form: { FriendlyName: 'Switchboard' },
      });
      const key = { username: created.body.sid, password: created.body.secret };
      const numbers = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: key, account: demo.accountSid });
      expect(numbers.status).toBe(200);
      expect(numbers.body.incoming_phone_numbers).toHaveLength(4);
      expect((await request('GET', '.json', { auth: key, account: demo.accountSid })).status).toBe(401);
      expect((await request('GET', '/Keys.json', { auth: key, account: demo.accountSid })).status).toBe(401);

      const wrongSecret = { username: created.body.sid, password: `${created.body.secret.slice(1)}x` };
      expect((await request('GET', '/IncomingPhoneNumbers.json', { auth: wrongSecret, account: demo.accountSid })).status).toBe(
        401,
      );
      const other = await newAccount();
      expect((await request('GET', '/IncomingPhoneNumbers.json', { auth: key, account: other.accountSid })).status).toBe(401);

      await request('DELETE', `/Keys/${created.body.sid}.json`, { auth: demoAuth });
      expect((await request('GET', '/IncomingPhoneNumbers.json', { auth: key, account: demo.accountSid })).status).toBe(401);
    });
  });

  it('answers 404 20404 naming the path for an unknown resource or path, and 405 for an unknown method', async () => {
    const path = `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers/PN${'0'.repeat(32)}.json`;
    const res = await request('GET', path, { auth: demoAuth });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 20404,
      message: `The requested resource ${path} was not found`,
      more_info: 'https://www.twilio.com/docs/errors/20404',
      status: 404,
    });
    expect((await request('GET', '/Queues.json', { auth: demoAuth })).status).toBe(404);
    expect((await request('GET', '/IncomingPhoneNumbers', { auth: demoAuth })).status).toBe(404);
    const elsewhere = await fetch(`${emulator.url}/nothing-here`);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ code: 20404, message: 'The requested resource /nothing-here was not found' });
    const notAllowed = await request('DELETE', '/IncomingPhoneNumbers.json', { auth: demoAuth });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.body).toMatchObject({ code: 20004, status: 405 });
  });

  it('shows the account as Twilio does', async () => {
    const res = await request('GET', '.json', { auth: demoAuth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sid: demo.accountSid,
      status: 'active',
      type: 'Full',
      auth_token: demo.authToken,
      owner_account_sid: demo.accountSid,
      uri: `/2010-04-01/Accounts/${demo.accountSid}.json`,
      subresource_uris: { incoming_phone_numbers: `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers.json` },
    });
    expect(res.body.date_created).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
  });

  it('seeds the demo account with the four kinds of number', async () => {
    const res = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: demoAuth });
    const numbers = res.body.incoming_phone_numbers;
    expect(numbers.map((n) => [n.friendly_name, n.phone_number, n.capabilities])).toEqual([
      ['Main line', '+14155550101', { voice: true, sms: true, mms: true, fax: false }],
      ['SMS line', '+14155550102', { voice: false, sms: true, mms: false, fax: false }],
      ['Voice line', '+14155550103', { voice: true, sms: false, mms: false, fax: false }],
      ['Legacy IVR', '+14155550104', { voice: true, sms: true, mms: false, fax: false }],
    ]);
    expect(numbers[0]).toMatchObject({
      account_sid: demo.accountSid,
      voice_url: '',
      voice_method: 'POST',
      sms_url: '',
      origin: 'twilio',
      status: 'in-use',
      api_version: '2010-04-01',
      beta: false,
      address_requirements: 'none',
    });
    expect(numbers[0]?.sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect(numbers[3]).toMatchObject({
      voice_url: 'https://legacy-ivr.example.com/voice',
      sms_url: 'https://legacy-ivr.example.com/sms',
    });
  });

  it('pages with PageSize, Page and PageToken, keeping filters in relative URIs', async () => {
    const base = `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers.json`;
    const first = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json?PageSize=3', { auth: demoAuth });
    expect(first.body).toMatchObject({
      page: 0,
      page_size: 3,
      start: 0,
      end: 2,
      uri: `${base}?PageSize=3&Page=0`,
      first_page_uri: `${base}?PageSize=3&Page=0`,
      previous_page_uri: null,
    });
    expect(first.body.incoming_phone_numbers.map((n) => n.friendly_name)).toEqual(['Main line', 'SMS line', 'Voice line']);
    const third = first.body.incoming_phone_numbers[2]?.sid;
    expect(first.body.next_page_uri).toBe(`${base}?PageSize=3&Page=1&PageToken=PA${third}`);

    const second = await request<NumberPage>('GET', first.body.next_page_uri ?? '', { auth: demoAuth });
    expect(second.body).toMatchObject({ page: 1, page_size: 3, start: 3, end: 3, next_page_uri: null });
    expect(second.body.incoming_phone_numbers.map((n) => n.friendly_name)).toEqual(['Legacy IVR']);

    const back = await request<NumberPage>('GET', second.body.previous_page_uri ?? '', { auth: demoAuth });
    expect(back.body.page).toBe(0);
    expect(back.body.incoming_phone_numbers.map((n) => n.friendly_name)).toEqual(['Main line', 'SMS line', 'Voice line']);

    const byPageNumber = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json?PageSize=2&Page=1', { auth: demoAuth });
    expect(byPageNumber.body.incoming_phone_numbers.map((n) => n.friendly_name)).toEqual(['Voice line', 'Legacy IVR']);

    const filtered = await request<NumberPage>(
      'GET',
      `/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent('+14155550102')}`,
      {
        auth: demoAuth,
      },
    );
    expect(filtered.body.incoming_phone_numbers.map((n) => n.phone_number)).toEqual(['+14155550102']);
    expect(filtered.body.uri).toBe(`${base}?PhoneNumber=%2B14155550102&PageSize=50&Page=0`);
    const wildcard = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json?PhoneNumber=555010*&PageSize=1', {
      auth: demoAuth,
    });
    expect(wildcard.body.incoming_phone_numbers).toHaveLength(1);
    expect(wildcard.body.next_page_uri).toMatch(/\?PhoneNumber=555010\*&PageSize=1&Page=1&PageToken=PAPN/);

    const invalid = await request('GET', '/IncomingPhoneNumbers.json?PageSize=0', { auth: demoAuth });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ status: 400 });
  });

  describe('updating a number', () => {
    const numberPath = async (friendlyName: string) => {
      const list = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: demoAuth });
      const number = list.body.incoming_phone_numbers.find((n) => n.friendly_name === friendlyName);
      return `/IncomingPhoneNumbers/${number?.sid}.json`;
    };

    it('changes only the parameters given, and an empty URL clears it', async () => {
      const path = await numberPath('Legacy IVR');
      const res = await request<NumberResource>('POST', path, {
        auth: demoAuth,
        form: { SmsUrl: 'http://127.0.0.1:3000/webhooks/twilio/x/sms', SmsMethod: 'get', VoiceUrl: '' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        sms_url: 'http://127.0.0.1:3000/webhooks/twilio/x/sms',
        sms_method: 'GET',
        voice_url: '',
        voice_method: 'POST',
        friendly_name: 'Legacy IVR',
      });
      const again = await request<NumberResource>('GET', path, { auth: demoAuth });
      expect(again.body).toEqual(res.body);
    });

    it('refuses a URL that is not http(s), or a method other than GET and POST, and changes nothing', async () => {
      const path = await numberPath('Main line');
      const url = await request('POST', path, {
        auth: demoAuth,
        form: { SmsUrl: 'https://ok.example.com/sms', VoiceUrl: 'ftp://x' },
      });
      expect(url.status).toBe(400);
      expect(url.body).toEqual({
        code: 21402,
        message: 'VoiceUrl is not a valid URL: ftp://x',
        more_info: 'https://www.twilio.com/docs/errors/21402',
        status: 400,
      });
      const method = await request('POST', path, { auth: demoAuth, form: { StatusCallbackMethod: 'PUT' } });
      expect(method.status).toBe(400);
      expect(method.body).toMatchObject({ code: 21403, status: 400 });
      const application = await request('POST', path, { auth: demoAuth, form: { VoiceApplicationSid: `AP${'1'.repeat(32)}` } });
      expect(application.body).toMatchObject({ code: 21420, status: 400 });
      expect((await request<NumberResource>('GET', path, { auth: demoAuth })).body.sms_url).toBe('');
    });
  });

  it('creates, lists, reads, updates and deletes applications', async () => {
    const created = await request<{ sid: string; [field: string]: unknown }>('POST', '/Applications.json', {
      auth: demoAuth,
      form: {
        FriendlyName: 'Switchboard',
        VoiceUrl: 'http://127.0.0.1:3000/webhooks/twilio/x/voice/outbound',
        VoiceMethod: 'POST',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      account_sid: demo.accountSid,
      friendly_name: 'Switchboard',
      voice_url: 'http://127.0.0.1:3000/webhooks/twilio/x/voice/outbound',
      voice_method: 'POST',
      sms_url: '',
      api_version: '2010-04-01',
      uri: `/2010-04-01/Accounts/${demo.accountSid}/Applications/${created.body.sid}.json`,
    });
    expect(created.body.sid).toMatch(/^AP[0-9a-f]{32}$/);
    await request('POST', '/Applications.json', { auth: demoAuth, form: { FriendlyName: 'Other' } });

    const listed = await request<{ applications: { sid: string }[] }>('GET', '/Applications.json?FriendlyName=Switchboard', {
      auth: demoAuth,
    });
    expect(listed.body.applications.map((a) => a.sid)).toEqual([created.body.sid]);
    expect(
      (await request<{ applications: unknown[] }>('GET', '/Applications.json', { auth: demoAuth })).body.applications,
    ).toHaveLength(2);

    const path = `/Applications/${created.body.sid}.json`;
    const updated = await request('POST', path, { auth: demoAuth, form: { SmsUrl: 'https://sms.example.com/in' } });
    expect(updated.body).toMatchObject({ friendly_name: 'Switchboard', sms_url: 'https://sms.example.com/in' });
    expect((await request('GET', path, { auth: demoAuth })).body).toEqual(updated.body);

    // A number using the application stops using it when it is deleted.
    const numbers = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: demoAuth });
    const numberPath = `/IncomingPhoneNumbers/${numbers.body.incoming_phone_numbers[0]?.sid}.json`;
    const wired = await request<NumberResource>('POST', numberPath, {
      auth: demoAuth,
      form: { VoiceApplicationSid: created.body.sid },
    });
    expect(wired.body.voice_application_sid).toBe(created.body.sid);

    const removed = await request('DELETE', path, { auth: demoAuth });
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expect((await request('GET', path, { auth: demoAuth })).status).toBe(404);
    expect((await request('DELETE', path, { auth: demoAuth })).status).toBe(404);
    expect((await request<NumberResource>('GET', numberPath, { auth: demoAuth })).body.voice_application_sid).toBe('');
  });

  it('creates API keys showing the secret once, lists, reads, renames and deletes them', async () => {
    const created = await request<{ sid: string; secret: string; friendly_name: string }>('POST', '/Keys.json', {
      auth: demoAuth,
      form: { FriendlyName: 'Switchboard voice' },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['date_created', 'date_updated', 'friendly_name', 'secret', 'sid']);
    expect(created.body.sid).toMatch(/^SK[0-9a-f]{32}$/);
    expect(created.body.secret).toMatch(/^[A-Za-z0-9]{32}$/);

    const listed = await request<{ keys: Record<string, unknown>[]; first_page_uri: string }>('GET', '/Keys.json', {
      auth: demoAuth,
    });
    expect(listed.body.keys).toEqual([
      {
        sid: created.body.sid,
        friendly_name: 'Switchboard voice',
        date_created: expect.any(String),
        date_updated: expect.any(String),
      },
    ]);
    expect(listed.body.first_page_uri).toBe(`/2010-04-01/Accounts/${demo.accountSid}/Keys.json?PageSize=50&Page=0`);

    const path = `/Keys/${created.body.sid}.json`;
    expect((await request('GET', path, { auth: demoAuth })).body).not.toHaveProperty('secret');
    const renamed = await request('POST', path, { auth: demoAuth, form: { FriendlyName: 'Renamed' } });
    expect(renamed.body).toMatchObject({ sid: created.body.sid, friendly_name: 'Renamed' });
    expect(renamed.body).not.toHaveProperty('secret');

    expect((await request('DELETE', path, { auth: demoAuth })).status).toBe(204);
    expect((await request('GET', path, { auth: demoAuth })).status).toBe(404);
    expect((await request<{ keys: unknown[] }>('GET', '/Keys.json', { auth: demoAuth })).body.keys).toEqual([]);
  });

  describe('emulator endpoints', () => {
    it('creates independent accounts with numbers of their own', async () => {
      const first = await newAccount();
      const second = await newAccount();
      expect(first.accountSid).toMatch(/^AC[0-9a-f]{32}$/);
      expect(first.authToken).toMatch(/^[0-9a-f]{32}$/);
      expect(first.numbers.map((n) => n.friendly_name)).toEqual(['Main line', 'SMS line', 'Voice line', 'Legacy IVR']);
      const demoNumbers = (await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: demoAuth })).body;
      const all = [...first.numbers, ...second.numbers, ...demoNumbers.incoming_phone_numbers].map((n) => n.phone_number);
      expect(new Set(all).size).toBe(12);
      for (const n of all) expect(n).toMatch(/^\+1\d{3}55501\d{2}$/);

      const own = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: accountOf(first) });
      expect(own.body.incoming_phone_numbers.map((n) => n.sid)).toEqual(first.numbers.map((n) => n.sid));
      const path = `/IncomingPhoneNumbers/${first.numbers[0]?.sid}.json`;
      expect((await request('GET', path, { auth: demoAuth, account: demo.accountSid })).status).toBe(404);

      await request('POST', path, { auth: accountOf(first), form: { SmsUrl: 'https://a.example.com/sms' } });
      await request('POST', '/Keys.json', { auth: accountOf(first), form: { FriendlyName: 'k' } });
      const state = await request<EmulatedAccount>('GET', `/_emulator/accounts/${first.accountSid}`);
      expect(state.status).toBe(200);
      expect(state.body.numbers[0]?.sms_url).toBe('https://a.example.com/sms');
      expect(state.body.keys).toEqual([expect.objectContaining({ friendly_name: 'k' })]);
      expect(state.body.keys[0]).not.toHaveProperty('secret');
      expect((await request<EmulatedAccount>('GET', `/_emulator/accounts/${second.accountSid}`)).body.numbers[0]?.sms_url).toBe(
        '',
      );
    });

    it('resets to the demo account alone, as first seeded', async () => {
      const extra = await newAccount();
      const numbers = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: demoAuth });
      const before = numbers.body.incoming_phone_numbers[0];
      await request('POST', `/IncomingPhoneNumbers/${before?.sid}.json`, {
        auth: demoAuth,
        form: { VoiceUrl: 'https://x.example.com' },
      });

      expect((await request('POST', '/_emulator/reset')).status).toBe(200);
      expect((await request('GET', `/_emulator/accounts/${extra.accountSid}`)).status).toBe(404);
      const after = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: demoAuth });
      expect(after.body.incoming_phone_numbers[0]).toMatchObject({ sid: before?.sid, voice_url: '' });
    });

    it('holds REST requests for rest.delayMs before acting on them; changing the faults lets them through', async () => {
      const account = await newAccount();
      const sid = account.numbers[0]?.sid;
      const setFaults = (faults: unknown) =>
        fetch(`${emulator.url}/_emulator/faults`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(faults) });
      expect((await setFaults([1])).status).toBe(400);
      expect((await setFaults({ delayMs: 5 })).status).toBe(400);
      expect((await setFaults({ rest: { delayMs: 120_001 } })).status).toBe(400);
      expect(await (await setFaults({ rest: { delayMs: 120_000 } })).json()).toEqual({
        all: { rest: { delayMs: 120_000 } },
        accounts: {},
      });

      const update = request('POST', `/IncomingPhoneNumbers/${sid}.json`, {
        auth: accountOf(account),
        form: { SmsUrl: 'https://slow.example.com/sms' },
      });
      // The control endpoints are not delayed: while the update is held, the number is unchanged.
      const during = await request<EmulatedAccount>('GET', `/_emulator/accounts/${account.accountSid}`);
      expect(during.body.numbers[0]?.sms_url).toBe('');
      // Setting the faults again lets what is held through (else the update would wait 2 minutes).
      await setFaults({});
      expect((await update).status).toBe(200);
      const after = await request<EmulatedAccount>('GET', `/_emulator/accounts/${account.accountSid}`);
      expect(after.body.numbers[0]?.sms_url).toBe('https://slow.example.com/sms');

      await setFaults({ rest: { delayMs: 5 }, webhooks: { drop: 1 }, accountSid: account.accountSid });
      await request('POST', '/_emulator/reset');
      expect((await request('GET', '/_emulator/faults')).body).toEqual({ all: {}, accounts: {} });
    });

    it('answers the next rest.times requests of one account with rest.status in Twilio’s error shape', async () => {
      const [account, other] = [await newAccount(), await newAccount()];
      const set = await fetch(`${emulator.url}/_emulator/faults`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ rest: { status: 503, times: 2 }, accountSid: account.accountSid }),
      });
      expect(set.status).toBe(200);
      const fetchAccount = (a: EmulatedAccount) => request('GET', '.json', { auth: accountOf(a) });

      expect((await fetchAccount(other)).status).toBe(200);
      for (let i = 0; i < 2; i++) {
        expect(await fetchAccount(account)).toMatchObject({
          status: 503,
          body: {
            code: 20503,
            message: 'Service Unavailable',
            more_info: 'https://www.twilio.com/docs/errors/20503',
            status: 503,
          },
        });
      }
      expect((await fetchAccount(account)).status).toBe(200);
      expect((await request('GET', '/_emulator/faults')).body).toEqual({ all: {}, accounts: {} });
      const unknown = await fetch(`${emulator.url}/_emulator/faults`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ rest: { status: 503 }, accountSid: 'AC0' }),
      });
      expect(unknown.status).toBe(404);
    });

    it('shows every account and number on the status page', async () => {
      const res = await fetch(`${emulator.url}/`);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain(demo.accountSid);
      expect(html).toContain('+14155550104');
      expect(html).toContain('https://legacy-ivr.example.com/voice');
    });
  });
});

/** A request as a browser would send it, with headers fetch may not set (Host) or does not send (Origin). */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('Twilio emulator against cross-site requests', () => {
  let emulator: TwilioEmulator;
  const { request } = client(() => emulator);
  beforeAll(async () => {
    emulator = await startTwilioEmulator({ port: await freePort(), demo, log: quietLogger });
  });
  afterAll(() => emulator.stop());
  afterEach(() => request('POST', '/_emulator/reset'));

  const own = () => new URL(emulator.url).host;
  const text = async (headers: Record<string, string>, body = 'Hello from a page on another site') => {
    const number = (await request<{ numbers: { phoneNumber: string }[] }>('GET', '/_emulator/phone/numbers')).body.numbers[0];
    const payload = JSON.stringify({ from: '+14155550199', to: number?.phoneNumber, body });
    const res = await rawRequest(`${emulator.url}/_emulator/messages`, { method: 'POST', headers, body: payload });
    const query = new URLSearchParams({ phone: '+14155550199', number: number?.phoneNumber ?? '' });
    const thread = await request<{ messages: { body: string }[] }>('GET', `/_emulator/phone/conversation?${query}`);
    return { status: res.status, body: res.body, stored: thread.body.messages.map((m) => m.body) };
  };

  it('refuses a control request whose body is not declared JSON (a form or text/plain POST), storing nothing', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await text({ 'content-type': type });
      expect({ status: res.status, stored: res.stored }, type).toEqual({ status: 415, stored: [] });
      expect(JSON.parse(res.body)).toEqual({ error: 'Send JSON with Content-Type: application/json.' });
    }
    expect(await text({ 'content-type': 'application/json' })).toMatchObject({ status: 201, stored: [expect.any(String)] });
  });

  it('refuses a request from a page of another origin (Origin, Sec-Fetch-Site), to the REST API too', async () => {
    const pages: Record<string, string>[] = [
      { origin: 'https://attacker.example' },
      { origin: 'http://localhost:5173' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of pages) {
      const res = await text({ 'content-type': 'application/json', ...headers });
      expect({ status: res.status, stored: res.stored }, JSON.stringify(headers)).toEqual({ status: 403, stored: [] });
    }
    const auth = `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}`;
    const rest = await rawRequest(`${emulator.url}/2010-04-01/Accounts/${demo.accountSid}/Keys.json`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example' },
      body: 'FriendlyName=planted',
    });
    expect(rest.status).toBe(403);
    expect(JSON.parse(rest.body)).toMatchObject({ status: 403, code: 20403 });
    // The Twilio SDK (a server, no Origin) posts forms as before.
    const sdk = await request('POST', '/Keys.json', { auth: demoAuth, form: { FriendlyName: 'server' } });
    expect(sdk.status).toBe(201);
  });

  it('refuses a Host that is not a loopback name or address (DNS rebinding), so no page reads the auth tokens', async () => {
    for (const host of ['attacker.example', `attacker.example:${new URL(emulator.url).port}`, '192.168.1.20']) {
      const res = await rawRequest(`${emulator.url}/_emulator/accounts`, { headers: { host } });
      expect(res.status, host).toBe(403);
      expect(res.body).not.toContain(demo.authToken);
      expect((await rawRequest(`${emulator.url}/`, { headers: { host } })).status, host).toBe(403);
    }
    for (const host of [own(), `localhost:${new URL(emulator.url).port}`, `[::1]:${new URL(emulator.url).port}`]) {
      expect((await rawRequest(`${emulator.url}/_emulator/accounts`, { headers: { host } })).status, host).toBe(200);
    }
  });

  it('keeps its own pages working: same-origin requests, and opening a page from a link elsewhere', async () => {
    const sameOrigin = { origin: emulator.url, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
    expect(await text(sameOrigin)).toMatchObject({ status: 201, stored: [expect.any(String)] });
    const navigate = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    for (const page of ['/', '/phone'])
      expect((await rawRequest(`${emulator.url}${page}`, { headers: navigate })).status).toBe(200);
    // A navigation that posts (a form on another site) is still refused.
    expect((await text({ ...navigate, 'content-type': 'application/json' })).status).toBe(403);
  });
});

describe('Twilio emulator state file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'twilio-emulator-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every change across a restart', async () => {
    const stateFile = join(dir, 'twilio-emulator.json');
    let emulator = await startTwilioEmulator({ port: await freePort(), stateFile, demo, log: quietLogger });
    const { request, newAccount } = client(() => emulator);
    const extra = await newAccount();
    const numbers = await request<NumberPage>('GET', '/IncomingPhoneNumbers.json', { auth: demoAuth });
    const path = `/IncomingPhoneNumbers/${numbers.body.incoming_phone_numbers[1]?.sid}.json`;
    await request('POST', path, { auth: demoAuth, form: { SmsUrl: 'https://kept.example.com/sms' } });
    const key = await request<{ sid: string; secret: string }>('POST', '/Keys.json', {
      auth: demoAuth,
      form: { FriendlyName: 'k' },
    });
    const app = await request<{ sid: string }>('POST', '/Applications.json', { auth: demoAuth, form: { FriendlyName: 'a' } });
    await emulator.stop();
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).accounts).toHaveLength(2);

    emulator = await startTwilioEmulator({ port: await freePort(), stateFile, demo, log: quietLogger });
    try {
      expect((await request<NumberResource>('GET', path, { auth: demoAuth })).body.sms_url).toBe('https://kept.example.com/sms');
      const keyAuth = { username: key.body.sid, password: key.body.secret };
      expect((await request('GET', '/IncomingPhoneNumbers.json', { auth: keyAuth, account: demo.accountSid })).status).toBe(200);
      expect((await request('GET', `/Applications/${app.body.sid}.json`, { auth: demoAuth })).status).toBe(200);
      expect((await request('GET', '/IncomingPhoneNumbers.json', { auth: accountOf(extra) })).status).toBe(200);
      const another = await newAccount();
      expect(another.numbers.map((n) => n.phone_number)).not.toEqual(expect.arrayContaining([extra.numbers[0]?.phone_number]));
    } finally {
      await emulator.stop();
    }
  });

  it('takes over a changed demo auth token, and refuses a file it cannot read', async () => {
    const stateFile = join(dir, 'changed.json');
    const first = await startTwilioEmulator({ port: await freePort(), stateFile, demo, log: quietLogger });
    await first.stop();
    const rotated = { ...demo, authToken: 'a'.repeat(32) };
    const second = await startTwilioEmulator({ port: await freePort(), stateFile, demo: rotated, log: quietLogger });
    const { request } = client(() => second);
    try {
      expect((await request('GET', '.json', { auth: accountOf(rotated) })).status).toBe(200);
      expect((await request('GET', '.json', { auth: demoAuth })).status).toBe(401);
    } finally {
      await second.stop();
    }

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"not":"state"}');
    await expect(startTwilioEmulator({ port: await freePort(), stateFile: broken, demo, log: quietLogger })).rejects.toThrow(
      /not a Twilio emulator state file/,
    );
  });
});
