import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { quietLogger } from '../log';
import { startTwilioEmulator } from '../server';
import { demo, freePort, useTwilioEmulator } from '../test-harness';
import { type ReceivedRequest, startReceiver } from '../test-receiver';

const PHONE = '+14155550199';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; friendly_name: string; capabilities: { voice: boolean; sms: boolean } }[];
  messages: (Message & { status_callback: string; callbacks: Attempt[]; webhooks: Attempt[] })[];
}

interface Message {
  sid: string;
  account_sid: string;
  direction: string;
  from: string;
  to: string;
  body: string;
  status: string;
  num_segments: string;
  error_code: number | null;
  error_message: string | null;
  uri: string;
}

interface Attempt {
  url: string;
  method: string;
  messageStatus?: string;
  status: number | null;
  body: string;
}

interface TwilioProblem {
  code: number;
  message: string;
  more_info: string;
  status: number;
}

describe('Twilio emulator messaging', () => {
  const harness = useTwilioEmulator();
  const { call } = harness;

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;
  const accountView = async (account: Account) => (await call<Account>('GET', `/_emulator/accounts/${account.accountSid}`)).body;
  const smsNumber = (account: Account) =>
    account.numbers.find((n) => n.capabilities.sms && n.capabilities.voice)?.phone_number ?? '';
  const voiceOnly = (account: Account) => account.numbers.find((n) => !n.capabilities.sms)?.phone_number ?? '';
  const send = (account: Account, form: Record<string, string>) =>
    call<Message & TwilioProblem>('POST', `/2010-04-01/Accounts/${account.accountSid}/Messages.json`, { auth: account, form });
  const text = (input: Record<string, unknown>) =>
    call<{ sid: string; webhook: Attempt | null; webhooks: Attempt[]; error?: string }>('POST', '/_emulator/messages', {
      json: input,
    });
  const setSmsUrl = async (account: Account, url: string, method = 'POST') => {
    const number = account.numbers.find((n) => n.phone_number === smsNumber(account));
    const res = await call('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { SmsUrl: url, SmsMethod: method },
    });
    expect(res.status).toBe(200);
  };
  const requestsTo = (path: string) => harness.receiver.requests.filter((r) => r.path === path);
  /** Whether the request is signed as the real Twilio library checks it, with this auth token. */
  const signedWith = (authToken: string, request: ReceivedRequest) =>
    validateRequest(authToken, request.signature ?? '', request.url, request.params);

  describe('sending (REST)', () => {
    it('creates a queued outbound message, then fetches and lists it as Twilio does', async () => {
      const account = await newAccount();
      const from = smsNumber(account);
      const created = await send(account, { From: from, To: PHONE, Body: 'Hello there' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        account_sid: account.accountSid,
        direction: 'outbound-api',
        from,
        to: PHONE,
        body: 'Hello there',
        status: 'queued',
        num_segments: '1',
        error_code: null,
        api_version: '2010-04-01',
        uri: `/2010-04-01/Accounts/${account.accountSid}/Messages/${created.body.sid}.json`,
      });
      expect(created.body.sid).toMatch(/^SM[0-9a-f]{32}$/);

      const fetched = await call<Message>('GET', created.body.uri, { auth: account });
      expect(fetched.body.sid).toBe(created.body.sid);
      const other = await send(account, { From: from, To: '+14155550198', Body: 'Another' });
      const list = await call<{ messages: Message[]; next_page_uri: string | null }>(
        'GET',
        `/2010-04-01/Accounts/${account.accountSid}/Messages.json?PageSize=1`,
        { auth: account },
      );
      // Newest first, as Twilio lists them.
      expect(list.body.messages.map((m) => m.sid)).toEqual([other.body.sid]);
      expect(list.body.next_page_uri).toContain('PageSize=1');
      const filtered = await call<{ messages: Message[] }>(
        'GET',
        `/2010-04-01/Accounts/${account.accountSid}/Messages.json?To=${encodeURIComponent(PHONE)}`,
        {
          auth: account,
        },
      );
      expect(filtered.body.messages.map((m) => m.sid)).toEqual([created.body.sid]);
      expect(
        (await call('GET', `/2010-04-01/Accounts/${account.accountSid}/Messages/SM${'0'.repeat(32)}.json`, { auth: account }))
          .status,
      ).toBe(404);
      expect((await call('GET', `/2010-04-01/Accounts/${account.accountSid}/Messages.json`)).status).toBe(401);
    });

    it("refuses with Twilio's codes and messages, and stores nothing", async () => {
      const account = await newAccount();
      const other = await newAccount();
      const from = smsNumber(account);
      const cases: [Record<string, string>, number, string][] = [
        [{ From: from, Body: 'x' }, 21604, "A 'To' phone number is required."],
        [{ To: PHONE, Body: 'x' }, 21603, "A 'From' phone number is required."],
        [{ From: from, To: PHONE }, 21602, 'Message body is required.'],
        [{ From: from, To: '4155550199', Body: 'x' }, 21211, "The 'To' number 4155550199 is not a valid phone number."],
        [{ From: from, To: '+15005550001', Body: 'x' }, 21211, "The 'To' number +15005550001 is not a valid phone number."],
        [
          { From: smsNumber(other), To: PHONE, Body: 'x' },
          21606,
          `The 'From' phone number provided (${smsNumber(other)}) is not a valid message-capable Twilio phone number for this destination/account.`,
        ],
        [
          { From: voiceOnly(account), To: PHONE, Body: 'x' },
          21606,
          `The 'From' phone number provided (${voiceOnly(account)}) is not a valid message-capable Twilio phone number for this destination/account.`,
        ],
        [
          { From: from, To: PHONE, Body: 'x'.repeat(1601) },
          21617,
          'The concatenated message body exceeds the 1600 character limit.',
        ],
        [
          { From: from, To: '+15005550009', Body: 'x' },
          21612,
          `The 'To' phone number: +15005550009, is not currently reachable using the 'From' phone number: ${from} via SMS.`,
        ],
      ];
      for (const [form, code, message] of cases) {
        const res = await send(account, form);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status: 400 },
        });
      }
      expect((await send(account, { From: from, To: PHONE, Body: 'x'.repeat(1600) })).status).toBe(201);
      expect((await accountView(account)).messages).toHaveLength(1);
    });

    it('counts Body as Twilio does: an emoji takes two of the 1,600 characters, and num_segments is what Twilio bills', async () => {
      const account = await newAccount();
      const from = smsNumber(account);
      const refused = await send(account, { From: from, To: PHONE, Body: '😀'.repeat(801) });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 21617 });
      // 33 emoji fill a 67-unit UCS-2 segment: the 34th would be split, so it starts the next one.
      const emoji = await send(account, { From: from, To: PHONE, Body: '😀'.repeat(800) });
      expect({ status: emoji.status, segments: emoji.body.num_segments }).toEqual({ status: 201, segments: '25' });
      const gsm = await send(account, { From: from, To: PHONE, Body: 'x'.repeat(161) });
      expect(gsm.body.num_segments).toBe('2');
    });
  });

  describe('carrier', () => {
    it('advances queued → sending → sent → delivered, posting a signed callback per step to the StatusCallback as given', async () => {
      const account = await newAccount();
      const statusCallback = `${harness.receiver.base}/status?channel=ch1&kind=sms`;
      const created = await send(account, { From: smsNumber(account), To: PHONE, Body: 'Hi', StatusCallback: statusCallback });
      await expect.poll(() => requestsTo('/status').length).toBe(3);
      const callbacks = requestsTo('/status');
      expect(callbacks.map((r) => r.params.MessageStatus)).toEqual(['sending', 'sent', 'delivered']);
      for (const request of callbacks) {
        expect(request.url).toBe(statusCallback);
        expect(signedWith(account.authToken, request)).toBe(true);
        expect(signedWith(demo.authToken, request)).toBe(false);
        expect(request.params).toEqual({
          AccountSid: account.accountSid,
          ApiVersion: '2010-04-01',
          From: smsNumber(account),
          MessageSid: created.body.sid,
          MessageStatus: request.params.MessageStatus,
          SmsSid: created.body.sid,
          SmsStatus: request.params.MessageStatus,
          To: PHONE,
        });
      }
      const fetched = await call<Message>('GET', created.body.uri, { auth: account });
      expect(fetched.body.status).toBe('delivered');

      // The accounts view keeps the StatusCallback and every attempt with its answer.
      await expect.poll(async () => (await accountView(account)).messages[0]?.callbacks.length).toBe(3);
      const [message] = (await accountView(account)).messages;
      expect(message?.status_callback).toBe(statusCallback);
      expect(message?.callbacks.map((c) => [c.messageStatus, c.status, c.url])).toEqual([
        ['sending', 200, statusCallback],
        ['sent', 200, statusCallback],
        ['delivered', 200, statusCallback],
      ]);
    });

    it('ends a message to +15005550006 undelivered with ErrorCode 30003', async () => {
      const account = await newAccount();
      const created = await send(account, {
        From: smsNumber(account),
        To: '+15005550006',
        Body: 'Hi',
        StatusCallback: `${harness.receiver.base}/lost`,
      });
      expect(created.status).toBe(201);
      await expect.poll(() => requestsTo('/lost').length).toBe(3);
      const callbacks = requestsTo('/lost');
      expect(callbacks.map((r) => [r.params.MessageStatus, r.params.ErrorCode])).toEqual([
        ['sending', undefined],
        ['sent', undefined],
        ['undelivered', '30003'],
      ]);
      const fetched = await call<Message>('GET', created.body.uri, { auth: account });
      expect(fetched.body).toMatchObject({
        status: 'undelivered',
        error_code: 30003,
        error_message: 'Unreachable destination handset',
      });
    });

    it('records failing callbacks (5xx, connection refused) and keeps going', async () => {
      const account = await newAccount();
      harness.receiver.answer('/broken', 500);
      const closedPort = await freePort();
      const broken = await send(account, {
        From: smsNumber(account),
        To: PHONE,
        Body: 'a',
        StatusCallback: `${harness.receiver.base}/broken`,
      });
      const refused = await send(account, {
        From: smsNumber(account),
        To: PHONE,
        Body: 'b',
        StatusCallback: `http://127.0.0.1:${closedPort}/x`,
      });
      await expect
        .poll(async () => (await accountView(account)).messages.map((m) => [m.sid, m.status, m.callbacks.map((c) => c.status)]))
        .toEqual([
          [broken.body.sid, 'delivered', [500, 500, 500]],
          [refused.body.sid, 'delivered', [null, null, null]],
        ]);
      expect((await send(account, { From: smsNumber(account), To: PHONE, Body: 'still up' })).status).toBe(201);
    });

    it('loses the next webhooks.drop callbacks of one account on the way, then delivers again', async () => {
      const account = await newAccount();
      const set = await call('POST', '/_emulator/faults', { json: { webhooks: { drop: 1 }, accountSid: account.accountSid } });
      expect(set.status).toBe(200);
      const statusCallback = `${harness.receiver.base}/dropped`;
      await send(account, { From: smsNumber(account), To: PHONE, Body: 'Hi', StatusCallback: statusCallback });
      await expect
        .poll(async () => (await accountView(account)).messages[0]?.callbacks.map((c) => c.status))
        .toEqual([null, 200, 200]);
      expect(requestsTo('/dropped').map((r) => r.params.MessageStatus)).toEqual(['sent', 'delivered']);
    });

    it('takes the step time set for an account through /_emulator/settings, and a reset restores the default', async () => {
      const account = await newAccount();
      expect((await call('POST', '/_emulator/settings', { json: { messageStepMs: 0 } })).status).toBe(400);
      expect((await call('POST', '/_emulator/settings', { json: { messageStepMs: 50, accountSid: 'ACnope' } })).status).toBe(404);
      const set = await call('POST', '/_emulator/settings', { json: { messageStepMs: 60_000, accountSid: account.accountSid } });
      expect(set.body).toEqual({
        messageStepMs: 10,
        callTimeScale: 1,
        accounts: { [account.accountSid]: { messageStepMs: 60_000 } },
      });
      const slow = await send(account, {
        From: smsNumber(account),
        To: PHONE,
        Body: 'slow',
        StatusCallback: `${harness.receiver.base}/slow`,
      });
      // Another account keeps the fast default: its message is delivered while this one waits.
      const other = await newAccount();
      await send(other, { From: smsNumber(other), To: PHONE, Body: 'fast', StatusCallback: `${harness.receiver.base}/fast` });
      await expect.poll(() => requestsTo('/fast').length).toBe(3);
      expect((await call<Message>('GET', slow.body.uri, { auth: account })).body.status).toBe('queued');
      await call('POST', '/_emulator/reset');
      expect((await call('GET', '/_emulator/settings')).body).toEqual({ messageStepMs: 10, callTimeScale: 1, accounts: {} });
    });
  });

  describe('opt-out', () => {
    it('STOP (any case, trimmed) makes sends from that number to that phone fail with 21610; START lifts it', async () => {
      const account = await newAccount();
      await setSmsUrl(account, `${harness.receiver.base}/sms`);
      const from = smsNumber(account);
      const smsOnly = account.numbers.find((n) => !n.capabilities.voice && n.capabilities.sms)?.phone_number ?? '';

      expect((await text({ from: PHONE, to: from, body: 'please stop' })).status).toBe(201);
      expect((await send(account, { From: from, To: PHONE, Body: 'still fine' })).status).toBe(201);

      expect((await text({ from: PHONE, to: from, body: '  sToP \n' })).status).toBe(201);
      // The STOP itself reaches the product.
      expect(requestsTo('/sms').map((r) => r.params.Body)).toEqual(['please stop', '  sToP \n']);
      const refused = await send(account, { From: from, To: PHONE, Body: 'Are you there?' });
      expect(refused.body).toEqual({
        code: 21610,
        message: 'Attempt to send to unsubscribed recipient',
        more_info: 'https://www.twilio.com/docs/errors/21610',
        status: 400,
      });
      // Only that pair: another number of the account, and another phone, are unaffected.
      expect((await send(account, { From: smsOnly, To: PHONE, Body: 'x' })).status).toBe(201);
      expect((await send(account, { From: from, To: '+14155550198', Body: 'x' })).status).toBe(201);

      for (const keyword of ['STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit']) {
        await text({ from: PHONE, to: from, body: 'start' });
        expect((await send(account, { From: from, To: PHONE, Body: 'x' })).status).toBe(201);
        await text({ from: PHONE, to: from, body: keyword });
        expect((await send(account, { From: from, To: PHONE, Body: 'x' })).body.code).toBe(21610);
      }
      await text({ from: PHONE, to: from, body: 'UNSTOP' });
      expect((await send(account, { From: from, To: PHONE, Body: 'Welcome back' })).status).toBe(201);
    });
  });

  describe('inbound texts (POST /_emulator/messages)', () => {
    it("stores a received message and posts Twilio's signed webhook to the number's SmsUrl", async () => {
      const account = await newAccount();
      const smsUrl = `${harness.receiver.base}/sms?webhook=abc`;
      await setSmsUrl(account, smsUrl);
      const to = smsNumber(account);
      const res = await text({ from: PHONE, to, body: 'Héllo, is anyone there?' });
      expect(res.status).toBe(201);
      expect(res.body.webhook).toMatchObject({
        url: smsUrl,
        status: 200,
        body: '<?xml version="1.0" encoding="UTF-8"?><Response/>',
      });

      const [request] = requestsTo('/sms');
      expect(request?.url).toBe(smsUrl);
      expect(request && signedWith(account.authToken, request)).toBe(true);
      expect(request?.params).toEqual({
        AccountSid: account.accountSid,
        ApiVersion: '2010-04-01',
        Body: 'Héllo, is anyone there?',
        From: PHONE,
        FromCity: '',
        FromCountry: 'US',
        FromState: '',
        FromZip: '',
        MessageSid: res.body.sid,
        NumMedia: '0',
        NumSegments: '1',
        SmsMessageSid: res.body.sid,
        SmsSid: res.body.sid,
        SmsStatus: 'received',
        To: to,
        ToCity: '',
        ToCountry: 'US',
        ToState: '',
        ToZip: '',
      });
      const fetched = await call<Message>('GET', `/2010-04-01/Accounts/${account.accountSid}/Messages/${res.body.sid}.json`, {
        auth: account,
      });
      expect(fetched.body).toMatchObject({
        direction: 'inbound',
        status: 'received',
        from: PHONE,
        to,
        body: 'Héllo, is anyone there?',
      });
      const [message] = (await accountView(account)).messages;
      expect(message?.webhooks.map((w) => [w.url, w.status])).toEqual([[smsUrl, 200]]);
    });

    it('with SmsMethod GET, sends the parameters in the query string, signed over the whole URL', async () => {
      const account = await newAccount();
      await setSmsUrl(account, `${harness.receiver.base}/sms-get?x=1`, 'GET');
      await text({ from: PHONE, to: smsNumber(account), body: 'by GET' });
      const [request] = requestsTo('/sms-get');
      expect(request?.method).toBe('GET');
      const query = new URL(request?.url ?? '').searchParams;
      expect([query.get('x'), query.get('Body'), query.get('From')]).toEqual(['1', 'by GET', PHONE]);
      expect(request && signedWith(account.authToken, request)).toBe(true);
    });

    it('posts the same webhook N times one after another with deliveries, N at once with parallel', async () => {
      const account = await newAccount();
      await setSmsUrl(account, `${harness.receiver.base}/sms`);
      const retried = await text({ from: PHONE, to: smsNumber(account), body: 'again', deliveries: 3 });
      expect(retried.body.webhooks.map((w) => w.status)).toEqual([200, 200, 200]);
      const deliveries = requestsTo('/sms');
      expect(deliveries.map((r) => r.params.MessageSid)).toEqual([retried.body.sid, retried.body.sid, retried.body.sid]);
      expect(new Set(deliveries.map((r) => r.idempotencyToken)).size).toBe(1);
      expect(deliveries.every((r) => signedWith(account.authToken, r))).toBe(true);

      // The receiver answers none until all five are in: they can only all arrive if sent at once.
      await setSmsUrl(account, `${harness.receiver.base}/together`);
      harness.receiver.hold('/together', 5);
      const parallel = await text({ from: PHONE, to: smsNumber(account), body: 'dup', parallel: 5 });
      expect(parallel.body.webhooks.map((w) => w.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(requestsTo('/together').map((r) => r.params.MessageSid))).toEqual(new Set([parallel.body.sid]));
      // One message for each text, however many deliveries.
      expect((await accountView(account)).messages.map((m) => m.webhooks.length)).toEqual([3, 5]);
    });

    it("signs with a wrong key when asked, and shows the product's refusal", async () => {
      const account = await newAccount();
      await setSmsUrl(account, `${harness.receiver.base}/strict`);
      harness.receiver.answer('/strict', 403);
      const res = await text({ from: PHONE, to: smsNumber(account), body: 'forged', signature: 'invalid' });
      expect(res.body.webhook?.status).toBe(403);
      const [request] = requestsTo('/strict');
      expect(request?.signature).toBeTruthy();
      expect(request && signedWith(account.authToken, request)).toBe(false);
    });

    it('answers 201 with webhook null for a number without SmsUrl, and a clear 4xx for a wrong text', async () => {
      const account = await newAccount();
      const quiet = await text({ from: PHONE, to: smsNumber(account), body: 'anyone?' });
      expect(quiet).toMatchObject({ status: 201, body: { webhook: null, webhooks: [] } });

      const cases: [Record<string, unknown>, number, RegExp][] = [
        [{ from: PHONE, to: '+19995550100', body: 'x' }, 404, /No emulator account has the number \+19995550100/],
        [{ from: PHONE, to: voiceOnly(account), body: 'x' }, 400, /cannot receive SMS/],
        [{ from: '555-0199', to: smsNumber(account), body: 'x' }, 400, /from must be the sending phone in E\.164/],
        [{ from: PHONE, to: smsNumber(account), body: '' }, 400, /body must be a text of 1 to 1600 characters/],
        [{ from: PHONE, to: smsNumber(account), body: 'x'.repeat(1601) }, 400, /1 to 1600/],
        [{ from: PHONE, to: smsNumber(account), body: 'x', deliveries: 0 }, 400, /deliveries must be a whole number/],
        [{ from: PHONE, to: smsNumber(account), body: 'x', parallel: 2, deliveries: 2 }, 400, /not both/],
        [{ from: PHONE, to: smsNumber(account), body: 'x', signature: 'wrong' }, 400, /signature may only be "invalid"/],
      ];
      for (const [input, status, message] of cases) {
        const res = await text(input);
        expect(res.status).toBe(status);
        expect(res.body.error).toMatch(message);
      }
      expect((await text({ from: PHONE, to: smsNumber(account), body: 'x'.repeat(1600) })).status).toBe(201);
      expect((await accountView(account)).messages).toHaveLength(2);
    });
  });
});

describe('Twilio emulator messaging across a restart', () => {
  const folder = mkdtempSync(join(tmpdir(), 'twilio-emulator-messaging-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('goes on with a message left under way, from the status it had', async () => {
    const receiver = await startReceiver();
    const stateFile = join(folder, 'state.json');
    const options = { demo, stateFile, log: quietLogger };
    const auth = `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}`;
    let emulator = await startTwilioEmulator({ ...options, port: await freePort(), messageStepMs: 60_000 });
    const created = await fetch(`${emulator.url}/2010-04-01/Accounts/${demo.accountSid}/Messages.json`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        From: '+14155550101',
        To: PHONE,
        Body: 'before the restart',
        StatusCallback: `${receiver.base}/status`,
      }).toString(),
    });
    const { uri } = (await created.json()) as Message;
    await emulator.stop();

    emulator = await startTwilioEmulator({ ...options, port: await freePort(), messageStepMs: 10 });
    try {
      await expect.poll(() => receiver.requests.map((r) => r.params.MessageStatus)).toEqual(['sending', 'sent', 'delivered']);
      const fetched = await fetch(`${emulator.url}${uri}`, { headers: { authorization: auth } });
      expect(((await fetched.json()) as Message).status).toBe('delivered');
    } finally {
      await emulator.stop();
      await receiver.stop();
    }
  });
});
