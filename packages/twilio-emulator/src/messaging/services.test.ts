import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { quietLogger } from '../log';
import { startTwilioEmulator } from '../server';
import { demo, freePort, useTwilioEmulator } from '../test-harness';
import type { ReceivedRequest } from '../test-receiver';

const PHONE = '+14155550199';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; friendly_name: string; capabilities: { voice: boolean; sms: boolean } }[];
}

interface Service {
  sid: string;
  account_sid: string;
  friendly_name: string;
  inbound_request_url: string | null;
  inbound_method: string;
  fallback_url: string | null;
  status_callback: string | null;
  use_inbound_webhook_on_number: boolean;
  date_created: string;
  links: Record<string, string>;
  url: string;
}

interface Meta {
  page: number;
  page_size: number;
  first_page_url: string;
  previous_page_url: string | null;
  url: string;
  next_page_url: string | null;
  key: string;
}

interface ServicePhoneNumber {
  sid: string;
  service_sid: string;
  phone_number: string;
  country_code: string;
  capabilities: string[];
  url: string;
}

interface Problem {
  code: number;
  message: string;
  status: number;
}

describe('Twilio emulator Messaging Services (messaging.twilio.com/v1)', () => {
  const harness = useTwilioEmulator();
  const { call } = harness;

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;
  const smsNumber = (account: Account) => account.numbers.find((n) => n.capabilities.sms && n.capabilities.voice);
  const voiceOnly = (account: Account) => account.numbers.find((n) => !n.capabilities.sms);
  const createService = async (account: Account, form: Record<string, string>) => {
    const res = await call<Service & Problem>('POST', '/v1/Services', { auth: account, form });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const addNumber = (account: Account, serviceSid: string, phoneNumberSid: string) =>
    call<ServicePhoneNumber & Problem>('POST', `/v1/Services/${serviceSid}/PhoneNumbers`, {
      auth: account,
      form: { PhoneNumberSid: phoneNumberSid },
    });
  const updateNumber = (account: Account, sid: string, form: Record<string, string>) =>
    call<Record<string, unknown>>('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${sid}.json`, {
      auth: account,
      form,
    });
  const text = (to: string, body: string) =>
    call<{ sid: string; webhook: { url: string; method: string; status: number | null } | null }>('POST', '/_emulator/messages', {
      json: { from: PHONE, to, body },
    });
  const requestsTo = (path: string) => harness.receiver.requests.filter((r) => r.path === path);
  const signedWith = (authToken: string, request: ReceivedRequest) =>
    validateRequest(authToken, request.signature ?? '', request.url, request.params);

  describe('Services', () => {
    it('creates one with Twilio’s defaults, fetches, updates and deletes it, with absolute URLs and ISO 8601 dates', async () => {
      const account = await newAccount();
      const service = await createService(account, { FriendlyName: 'Support texts' });
      expect(service).toMatchObject({
        account_sid: account.accountSid,
        friendly_name: 'Support texts',
        inbound_request_url: null,
        inbound_method: 'POST',
        fallback_url: null,
        fallback_method: 'POST',
        status_callback: null,
        use_inbound_webhook_on_number: false,
        sticky_sender: true,
        validity_period: 36000,
        scan_message_content: 'inherit',
        us_app_to_person_registered: false,
        url: `${harness.emulator.url}/v1/Services/${service.sid}`,
      });
      expect(service.sid).toMatch(/^MG[0-9a-f]{32}$/);
      expect(service.date_created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(service.links.phone_numbers).toBe(`${harness.emulator.url}/v1/Services/${service.sid}/PhoneNumbers`);

      const updated = await call<Service>('POST', `/v1/Services/${service.sid}`, {
        auth: account,
        form: {
          FriendlyName: 'A2P campaign',
          InboundRequestUrl: 'https://elsewhere.example.com/inbound',
          InboundMethod: 'get',
          FallbackUrl: 'https://elsewhere.example.com/fallback',
          StatusCallback: 'https://elsewhere.example.com/status',
          UseInboundWebhookOnNumber: 'True',
        },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        friendly_name: 'A2P campaign',
        inbound_request_url: 'https://elsewhere.example.com/inbound',
        inbound_method: 'GET',
        fallback_url: 'https://elsewhere.example.com/fallback',
        status_callback: 'https://elsewhere.example.com/status',
        use_inbound_webhook_on_number: true,
      });
      // Only the parameters given change; an empty URL clears it (null again).
      const cleared = await call<Service>('POST', `/v1/Services/${service.sid}`, {
        auth: account,
        form: { InboundRequestUrl: '', UseInboundWebhookOnNumber: 'false' },
      });
      expect(cleared.body).toMatchObject({
        friendly_name: 'A2P campaign',
        inbound_request_url: null,
        fallback_url: 'https://elsewhere.example.com/fallback',
        use_inbound_webhook_on_number: false,
      });
      const fetched = await call<Service>('GET', `/v1/Services/${service.sid}`, { auth: account });
      expect(fetched.body).toEqual(cleared.body);

      expect((await call('DELETE', `/v1/Services/${service.sid}`, { auth: account })).status).toBe(204);
      const gone = await call<Problem>('GET', `/v1/Services/${service.sid}`, { auth: account });
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ code: 20404, status: 404 });
    });

    it('lists them in pages with Twilio’s v1 meta, next and previous page URLs that work', async () => {
      const account = await newAccount();
      const sids: string[] = [];
      for (const name of ['one', 'two', 'three']) sids.push((await createService(account, { FriendlyName: name })).sid);
      const first = await call<{ services: Service[]; meta: Meta }>('GET', '/v1/Services?PageSize=2', { auth: account });
      expect(first.status).toBe(200);
      expect(first.body.services.map((s) => s.sid)).toEqual(sids.slice(0, 2));
      const base = harness.emulator.url;
      expect(first.body.meta).toEqual({
        page: 0,
        page_size: 2,
        first_page_url: `${base}/v1/Services?PageSize=2&Page=0`,
        previous_page_url: null,
        url: `${base}/v1/Services?PageSize=2&Page=0`,
        next_page_url: `${base}/v1/Services?PageSize=2&Page=1&PageToken=PA${sids[1]}`,
        key: 'services',
      });
      const next = await call<{ services: Service[]; meta: Meta }>(
        'GET',
        (first.body.meta.next_page_url ?? '').slice(base.length),
        { auth: account },
      );
      expect(next.body.services.map((s) => s.sid)).toEqual(sids.slice(2));
      expect(next.body.meta).toMatchObject({ page: 1, next_page_url: null });
      expect(next.body.meta.previous_page_url).toBe(`${base}/v1/Services?PageSize=2&Page=0&PageToken=PB${sids[2]}`);
      // Another account sees none of them.
      const other = await newAccount();
      const empty = await call<{ services: Service[] }>('GET', '/v1/Services', { auth: other });
      expect(empty.body.services).toEqual([]);
    });

    it('takes an API key and its secret as the 2010 API does, and refuses wrong credentials with 20003', async () => {
      const account = await newAccount();
      const key = await harness.apiKey(account);
      const byKey = await call<Service>('POST', '/v1/Services', {
        auth: { accountSid: key.sid, authToken: key.secret },
        form: { FriendlyName: 'by key' },
      });
      expect(byKey.status).toBe(201);
      expect(byKey.body.account_sid).toBe(account.accountSid);
      const wrong = await call<Problem>('GET', '/v1/Services', {
        auth: { accountSid: account.accountSid, authToken: 'x'.repeat(32) },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: 20003 });
      expect((await call<Problem>('GET', '/v1/Services')).status).toBe(401);
      // One account's service is not found with another's credentials.
      const other = await newAccount();
      expect((await call<Problem>('GET', `/v1/Services/${byKey.body.sid}`, { auth: other })).body).toMatchObject({
        code: 20404,
        status: 404,
      });
    });

    it('refuses a missing FriendlyName, a bad URL, method, boolean or validity period, and changes nothing', async () => {
      const account = await newAccount();
      const missing = await call<Problem>('POST', '/v1/Services', { auth: account, form: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: 20001, message: 'Missing required parameter FriendlyName in the post body' });
      const service = await createService(account, { FriendlyName: 'kept' });
      const refusals: [Record<string, string>, number][] = [
        [{ InboundRequestUrl: 'ftp://x' }, 21402],
        [{ InboundMethod: 'PUT' }, 21403],
        [{ UseInboundWebhookOnNumber: 'yes' }, 20001],
        [{ ValidityPeriod: '0' }, 20001],
        [{ ScanMessageContent: 'always' }, 20001],
        [{ FriendlyName: '' }, 20001],
      ];
      for (const [form, code] of refusals) {
        const res = await call<Problem>('POST', `/v1/Services/${service.sid}`, { auth: account, form });
        expect([res.status, res.body.code], JSON.stringify(form)).toEqual([400, code]);
      }
      const fetched = await call<Service>('GET', `/v1/Services/${service.sid}`, { auth: account });
      expect(fetched.body).toEqual(service);
      expect((await call<Problem>('PUT', '/v1/Services', { auth: account })).status).toBe(405);
      expect((await call<Problem>('GET', '/v1/Nothing', { auth: account })).body).toMatchObject({ code: 20404 });
    });
  });

  describe('the sender pool (PhoneNumbers)', () => {
    it('adds a number by its SID, lists, fetches (by SID or E.164) and removes it', async () => {
      const account = await newAccount();
      const service = await createService(account, { FriendlyName: 'pool' });
      const number = smsNumber(account);
      const added = await addNumber(account, service.sid, number?.sid ?? '');
      expect(added.status).toBe(201);
      const path = `/v1/Services/${service.sid}/PhoneNumbers`;
      expect(added.body).toEqual({
        sid: number?.sid,
        account_sid: account.accountSid,
        service_sid: service.sid,
        date_created: expect.stringMatching(/Z$/),
        date_updated: expect.stringMatching(/Z$/),
        phone_number: number?.phone_number,
        country_code: 'US',
        capabilities: ['MMS', 'SMS', 'Voice'],
        url: `${harness.emulator.url}${path}/${number?.sid}`,
      });
      const list = await call<{ phone_numbers: ServicePhoneNumber[]; meta: Meta }>('GET', path, { auth: account });
      expect(list.body.phone_numbers).toEqual([added.body]);
      expect(list.body.meta).toMatchObject({ key: 'phone_numbers', page: 0, page_size: 50, next_page_url: null });
      expect((await call('GET', `${path}/${number?.sid}`, { auth: account })).body).toEqual(added.body);
      expect((await call('GET', `${path}/${encodeURIComponent(number?.phone_number ?? '')}`, { auth: account })).body).toEqual(
        added.body,
      );

      expect((await call('DELETE', `${path}/${number?.sid}`, { auth: account })).status).toBe(204);
      expect((await call<Problem>('GET', `${path}/${number?.sid}`, { auth: account })).body).toMatchObject({ code: 20404 });
      expect((await call<{ phone_numbers: unknown[] }>('GET', path, { auth: account })).body.phone_numbers).toEqual([]);
      // Removing it again, or from a service that does not exist, is not found.
      expect((await call<Problem>('DELETE', `${path}/${number?.sid}`, { auth: account })).status).toBe(404);
      expect((await call<Problem>('GET', `/v1/Services/MG${'0'.repeat(32)}/PhoneNumbers`, { auth: account })).status).toBe(404);
    });

    it("refuses with Twilio's codes: no SID, another account's number, a number without SMS, one already in a service", async () => {
      const account = await newAccount();
      const other = await newAccount();
      const first = await createService(account, { FriendlyName: 'first' });
      const second = await createService(account, { FriendlyName: 'second' });
      const number = smsNumber(account)?.sid ?? '';
      const missing = await call<Problem>('POST', `/v1/Services/${first.sid}/PhoneNumbers`, { auth: account, form: {} });
      expect([missing.status, missing.body.code]).toEqual([400, 20001]);
      const foreign = await addNumber(account, first.sid, smsNumber(other)?.sid ?? '');
      expect([foreign.status, foreign.body.code]).toEqual([400, 21421]);
      const voice = await addNumber(account, first.sid, voiceOnly(account)?.sid ?? '');
      expect([voice.status, voice.body.code]).toEqual([400, 21715]);
      expect((await addNumber(account, first.sid, number)).status).toBe(201);
      const again = await addNumber(account, first.sid, number);
      expect([again.status, again.body.code]).toEqual([400, 21710]);
      const elsewhere = await addNumber(account, second.sid, number);
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body).toMatchObject({
        code: 21712,
        message: 'Phone Number or Short Code is associated with another Messaging Service',
      });
      // Deleting the service frees the number for another.
      expect((await call('DELETE', `/v1/Services/${first.sid}`, { auth: account })).status).toBe(204);
      expect((await addNumber(account, second.sid, number)).status).toBe(201);
    });

    it("shows nothing of the service on the number's IncomingPhoneNumbers resource, as Twilio does", async () => {
      const account = await newAccount();
      const number = smsNumber(account);
      const path = `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`;
      const before = (await call('GET', path, { auth: account })).body;
      const service = await createService(account, { FriendlyName: 'pool', InboundRequestUrl: 'https://x.example.com/in' });
      await addNumber(account, service.sid, number?.sid ?? '');
      expect((await call('GET', path, { auth: account })).body).toEqual(before);
    });
  });

  describe('inbound texts to a number in a service', () => {
    it("go to the service's InboundRequestUrl (its method), signed, with MessagingServiceSid, while it does not use the number's webhook", async () => {
      const account = await newAccount();
      const number = smsNumber(account);
      const to = number?.phone_number ?? '';
      expect((await updateNumber(account, number?.sid ?? '', { SmsUrl: `${harness.receiver.base}/number-sms` })).status).toBe(
        200,
      );
      const serviceUrl = `${harness.receiver.base}/service-sms?from=service`;
      const service = await createService(account, { FriendlyName: 'A2P', InboundRequestUrl: serviceUrl });
      await addNumber(account, service.sid, number?.sid ?? '');

      const res = await text(to, 'to the service');
      expect(res.status).toBe(201);
      expect(res.body.webhook).toMatchObject({ url: serviceUrl, method: 'POST', status: 200 });
      const [request] = requestsTo('/service-sms');
      expect(request && signedWith(account.authToken, request)).toBe(true);
      expect(request?.params).toMatchObject({
        MessagingServiceSid: service.sid,
        AccountSid: account.accountSid,
        MessageSid: res.body.sid,
        Body: 'to the service',
        To: to,
        From: PHONE,
      });
      expect(requestsTo('/number-sms')).toEqual([]);

      // With InboundMethod GET, the parameters go in the query string, signed over the whole URL.
      await call('POST', `/v1/Services/${service.sid}`, { auth: account, form: { InboundMethod: 'GET' } });
      expect((await text(to, 'by GET')).body.webhook).toMatchObject({ method: 'GET', status: 200 });
      const byGet = requestsTo('/service-sms').at(-1);
      expect(byGet?.method).toBe('GET');
      expect(new URL(byGet?.url ?? '').searchParams.get('MessagingServiceSid')).toBe(service.sid);
      expect(byGet && signedWith(account.authToken, byGet)).toBe(true);
    });

    it("go to the number's SmsUrl once the service uses the number's webhook, or once the number leaves the service", async () => {
      const account = await newAccount();
      const number = smsNumber(account);
      const to = number?.phone_number ?? '';
      const numberUrl = `${harness.receiver.base}/number-sms`;
      await updateNumber(account, number?.sid ?? '', { SmsUrl: numberUrl });
      const service = await createService(account, {
        FriendlyName: 'A2P',
        InboundRequestUrl: `${harness.receiver.base}/service-sms`,
      });
      await addNumber(account, service.sid, number?.sid ?? '');
      expect((await text(to, 'one')).body.webhook?.url).toMatch(/\/service-sms$/);

      await call('POST', `/v1/Services/${service.sid}`, { auth: account, form: { UseInboundWebhookOnNumber: 'true' } });
      expect((await text(to, 'two')).body.webhook?.url).toBe(numberUrl);
      // Still in the service: Twilio names it.
      expect(requestsTo('/number-sms').at(-1)?.params.MessagingServiceSid).toBe(service.sid);

      await call('POST', `/v1/Services/${service.sid}`, { auth: account, form: { UseInboundWebhookOnNumber: 'false' } });
      await call('DELETE', `/v1/Services/${service.sid}/PhoneNumbers/${number?.sid}`, { auth: account });
      expect((await text(to, 'three')).body.webhook?.url).toBe(numberUrl);
      expect(requestsTo('/number-sms').at(-1)?.params.MessagingServiceSid).toBeUndefined();
      expect(requestsTo('/service-sms')).toHaveLength(1);
    });

    it('reach no webhook when the service has no InboundRequestUrl and does not use the number’s', async () => {
      const account = await newAccount();
      const number = smsNumber(account);
      await updateNumber(account, number?.sid ?? '', { SmsUrl: `${harness.receiver.base}/number-sms` });
      const service = await createService(account, { FriendlyName: 'drop' });
      await addNumber(account, service.sid, number?.sid ?? '');
      const res = await text(number?.phone_number ?? '', 'into the void');
      expect(res.status).toBe(201);
      expect(res.body.webhook).toBeNull();
      expect(requestsTo('/number-sms')).toEqual([]);
    });
  });

  it("fails as a failing Twilio with the account's REST faults, and refuses other sites' pages in Twilio's error shape", async () => {
    const account = await newAccount();
    const other = await newAccount();
    expect(
      (await call('POST', '/_emulator/faults', { json: { accountSid: account.accountSid, rest: { status: 503, times: 1 } } }))
        .status,
    ).toBe(200);
    expect((await call('GET', '/v1/Services', { auth: other })).status).toBe(200);
    const failed = await call<Problem>('GET', '/v1/Services', { auth: account });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: 20503, status: 503 });
    expect((await call('GET', '/v1/Services', { auth: account })).status).toBe(200);

    const crossSite = await fetch(`${harness.emulator.url}/v1/Services`, {
      headers: {
        origin: 'https://evil.example.com',
        authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
      },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: 20403, status: 403 });
  });

  it("changes a number's SmsUrl, VoiceUrl and StatusCallback through the REST API as the console does", async () => {
    const account = await newAccount();
    const number = smsNumber(account);
    const res = await updateNumber(account, number?.sid ?? '', {
      SmsUrl: 'https://studio.example.com/sms',
      VoiceUrl: 'https://studio.example.com/voice',
      StatusCallback: 'https://studio.example.com/status',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sms_url: 'https://studio.example.com/sms',
      voice_url: 'https://studio.example.com/voice',
      status_callback: 'https://studio.example.com/status',
    });
    const view = await call<{ numbers: { sid: string; sms_url: string }[] }>('GET', `/_emulator/accounts/${account.accountSid}`);
    expect(view.body.numbers.find((n) => n.sid === number?.sid)?.sms_url).toBe('https://studio.example.com/sms');
  });

  it("shows each number's service on the status page and in the account's state", async () => {
    const account = await newAccount();
    const number = smsNumber(account);
    const service = await createService(account, {
      FriendlyName: 'Campaign <A2P>',
      InboundRequestUrl: 'https://elsewhere.example.com/in',
    });
    await addNumber(account, service.sid, number?.sid ?? '');
    const page = await (await fetch(`${harness.emulator.url}/`)).text();
    expect(page).toContain(`Campaign &#60;A2P&#62; <code>${service.sid}</code>`);
    expect(page).toContain('texts go to POST <code>https://elsewhere.example.com/in</code>');
    const view = await call<{ messagingServices: unknown[] }>('GET', `/_emulator/accounts/${account.accountSid}`);
    expect(view.body.messagingServices).toEqual([
      {
        sid: service.sid,
        friendlyName: 'Campaign <A2P>',
        inboundRequestUrl: 'https://elsewhere.example.com/in',
        inboundMethod: 'POST',
        useInboundWebhookOnNumber: false,
        phoneNumberSids: [number?.sid],
      },
    ]);
  });
});

describe('Twilio emulator Messaging Services across a restart', () => {
  const folder = mkdtempSync(join(tmpdir(), 'twilio-emulator-services-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps its services and their numbers in the state file, and reads a file written before services existed', async () => {
    const stateFile = join(folder, 'state.json');
    const options = { demo, stateFile, log: quietLogger };
    const headers = {
      authorization: `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    };
    const post = (url: string, form: Record<string, string>) =>
      fetch(url, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
    let emulator = await startTwilioEmulator({ ...options, port: await freePort() });
    const created = (await (await post(`${emulator.url}/v1/Services`, { FriendlyName: 'kept' })).json()) as Service;
    const numberSid = emulator.store.accounts[0]?.numbers[0]?.sid ?? '';
    expect((await post(`${emulator.url}/v1/Services/${created.sid}/PhoneNumbers`, { PhoneNumberSid: numberSid })).status).toBe(
      201,
    );
    await emulator.stop();

    emulator = await startTwilioEmulator({ ...options, port: await freePort() });
    try {
      const list = await fetch(`${emulator.url}/v1/Services/${created.sid}/PhoneNumbers`, { headers });
      expect(((await list.json()) as { phone_numbers: { sid: string }[] }).phone_numbers.map((n) => n.sid)).toEqual([numberSid]);
    } finally {
      await emulator.stop();
    }

    // A state file from before Messaging Services: its accounts have none.
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    for (const account of state.accounts) delete account.messagingServices;
    writeFileSync(stateFile, JSON.stringify(state));
    emulator = await startTwilioEmulator({ ...options, port: await freePort() });
    try {
      const list = await fetch(`${emulator.url}/v1/Services`, { headers });
      expect(((await list.json()) as { services: unknown[] }).services).toEqual([]);
    } finally {
      await emulator.stop();
    }
  });
});
