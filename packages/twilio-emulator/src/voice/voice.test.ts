import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AccessToken from 'twilio/lib/jwt/AccessToken';
import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { quietLogger } from '../log';
import { startTwilioEmulator } from '../server';
import { demo, freePort, useTwilioEmulator } from '../test-harness';
import { type ReceivedRequest, startReceiver } from '../test-receiver';
import type { TokenCheck } from './access-token';
import type { CallView } from './representation';

const PHONE = '+14155550199';
const OUTSIDE = '+14155550142';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { voice: boolean; sms: boolean } }[];
}

const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

describe('Twilio emulator calls', () => {
  const harness = useTwilioEmulator();
  const { call } = harness;

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;
  const voiceNumber = (account: Account) => account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
  /** Points the account's voice number at the receiver: `/voice` answers TwiML, `/status` hears of the end. */
  async function answerCallsWith(account: Account, document: string, extra: Record<string, string> = {}) {
    harness.receiver.twiml('/voice', document);
    const number = voiceNumber(account);
    const res = await call('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice`, StatusCallback: `${harness.receiver.base}/status?number=1`, ...extra },
    });
    expect(res.status).toBe(200);
    return number?.phone_number ?? '';
  }
  const callFromPhone = (to: string, from = PHONE) => call<CallView>('POST', '/_emulator/calls', { json: { from, to } });
  const control = (sid: string, action: string, json: unknown = {}) =>
    call<CallView>('POST', `/_emulator/calls/${sid}/${action}`, { json });
  const view = async (sid: string) => (await call<CallView>('GET', `/_emulator/calls/${sid}`)).body;
  const requestsTo = (path: string) => harness.receiver.requests.filter((r) => r.path === path);
  /** Whether the request is signed as the real Twilio library checks it, with this auth token. */
  const signedWith = (authToken: string, request: ReceivedRequest) =>
    validateRequest(authToken, request.signature ?? '', request.url, request.params);

  const apiKey = (account: Account) => harness.apiKey(account);
  const application = (account: Account, voiceUrl: string) =>
    harness.application(account, { VoiceUrl: voiceUrl, StatusCallback: `${harness.receiver.base}/app-status` });
  function accessToken(
    account: Account,
    key: { sid: string; secret: string },
    options: { identity?: string; applicationSid?: string; ttl?: number; nbf?: number } = {},
  ) {
    const token = new AccessToken(account.accountSid, key.sid, key.secret, {
      identity: options.identity ?? 'alice',
      ttl: options.ttl ?? 3600,
      nbf: options.nbf,
    });
    token.addGrant(new AccessToken.VoiceGrant({ outgoingApplicationSid: options.applicationSid, incomingAllow: true }));
    return token.toJwt();
  }

  describe('a phone calls a number', () => {
    it("fetches the Voice URL with Twilio's signed parameters, says, hangs up, and tells the number's StatusCallback", async () => {
      const account = await newAccount();
      const number = await answerCallsWith(
        account,
        twiml('<Say voice="alice">Hello &amp; welcome</Say><Hangup/><Say>never</Say>'),
      );
      const res = await callFromPhone(number);
      expect(res.status).toBe(201);
      const sid = res.body.sid;
      expect(sid).toMatch(/^CA[0-9a-f]{32}$/);
      expect(res.body).toMatchObject({
        direction: 'inbound',
        from: PHONE,
        to: number,
        status: 'completed',
        said: ['Hello & welcome'],
        parent_call_sid: null,
        legs: [],
      });

      const [voice] = requestsTo('/voice');
      expect(voice?.params).toMatchObject({
        AccountSid: account.accountSid,
        ApiVersion: '2010-04-01',
        CallSid: sid,
        CallStatus: 'ringing',
        Direction: 'inbound',
        From: PHONE,
        Caller: PHONE,
        To: number,
        Called: number,
        FromCountry: 'US',
      });
      expect(signedWith(account.authToken, voice as ReceivedRequest)).toBe(true);
      expect(signedWith(demo.authToken, voice as ReceivedRequest)).toBe(false);

      // The number's StatusCallback hears of the end only, signed, with Twilio's call-progress parameters.
      const [status] = requestsTo('/status');
      expect(requestsTo('/status')).toHaveLength(1);
      expect(status?.url).toBe(`${harness.receiver.base}/status?number=1`);
      expect(status?.params).toMatchObject({
        CallSid: sid,
        CallStatus: 'completed',
        CallDuration: '0',
        Direction: 'inbound',
        CallbackSource: 'call-progress-events',
        SequenceNumber: '0',
        From: PHONE,
        To: number,
      });
      expect(status?.params.Timestamp).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
      expect(signedWith(account.authToken, status as ReceivedRequest)).toBe(true);
      expect((await view(sid)).twiml).toMatchObject([{ purpose: 'voice-url', status: 200, params: { CallSid: sid } }]);
    });

    it('rejects unanswered: busy with reason="busy", no-answer by default, and nothing after the Reject runs', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, twiml('<Reject reason="busy"/><Say>never</Say>'));
      const busy = await callFromPhone(number);
      expect(busy.body).toMatchObject({ status: 'busy', said: [], duration: null });
      harness.receiver.twiml('/voice', twiml('<Reject/>'));
      expect((await callFromPhone(number)).body.status).toBe('no-answer');
      expect(requestsTo('/status').map((r) => r.params.CallStatus)).toEqual(['busy', 'no-answer']);
    });

    it('pauses for its length in call time, which the time scale shortens and advance ends at once', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, twiml('<Say>one</Say><Pause length="600"/><Say>two</Say>'));
      const paused = await callFromPhone(number);
      expect(paused.body).toMatchObject({ status: 'in-progress', said: ['one'] });
      const advanced = await control(paused.body.sid, 'advance');
      expect(advanced.body).toMatchObject({ status: 'completed', said: ['one', 'two'] });
      expect((await control(paused.body.sid, 'advance')).status).toBe(409);

      const settings = await call('POST', '/_emulator/settings', {
        json: { callTimeScale: 0.001, accountSid: account.accountSid },
      });
      expect(settings.status).toBe(200);
      harness.receiver.twiml('/voice', twiml('<Pause length="2"/><Say>after two seconds</Say>'));
      const scaled = await callFromPhone(number);
      await expect.poll(async () => (await view(scaled.body.sid)).said).toEqual(['after two seconds']);
      expect((await call('POST', '/_emulator/settings', { json: { callTimeScale: 0 } })).status).toBe(400);
    });

    it('reports a failed Voice URL (11200) or unreadable TwiML (12100), tries the fallback URL, else apologises and hangs up', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, 'not xml');
      const unreadable = await callFromPhone(number);
      expect(unreadable.body).toMatchObject({
        status: 'completed',
        said: ['We are sorry, an application error has occurred. Goodbye.'],
        errors: [{ code: 12100 }],
      });
      harness.receiver.answer('/voice', 403);
      harness.receiver.twiml('/fallback', twiml('<Say>fallback</Say><Gather/>'));
      await answerCallsWith(account, twiml('<Say>unused</Say>'), { VoiceFallbackUrl: `${harness.receiver.base}/fallback` });
      const fallback = await callFromPhone(number);
      expect(fallback.body).toMatchObject({
        status: 'completed',
        said: ['fallback'],
        errors: [{ code: 11200 }, { code: 12200 }],
      });
      expect(fallback.body.twiml.map((t) => [t.purpose, t.status])).toEqual([
        ['voice-url', 403],
        ['voice-fallback-url', 200],
      ]);
    });

    it('refuses numbers no account has (404), numbers without voice (400) and malformed input (400)', async () => {
      const account = await newAccount();
      expect((await callFromPhone('+19995550100')).status).toBe(404);
      const smsOnly = account.numbers.find((n) => !n.capabilities.voice)?.phone_number ?? '';
      expect((await callFromPhone(smsOnly)).status).toBe(400);
      expect((await call('POST', '/_emulator/calls', { json: { from: 'me', to: smsOnly } })).status).toBe(400);
      expect((await call('GET', '/_emulator/calls/CA0')).status).toBe(404);
    });
  });

  describe('<Dial> to clients (ring all)', () => {
    const ringAll = (action = '/dial-result') =>
      twiml(
        `<Dial timeout="25" answerOnBridge="true" action="${action}">` +
          ['alice', 'bob', 'carol']
            .map(
              (identity) =>
                `<Client statusCallbackEvent="initiated ringing answered completed" statusCallback="/leg-status?who=${identity}">` +
                `<Identity>${identity}</Identity><Parameter name="caller" value="${PHONE}"/><Parameter name="called" value="main"/></Client>`,
            )
            .join('') +
          '</Dial>',
      );

    it('rings three clients at once; the first to answer is bridged, the others are canceled, in order and signed', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, ringAll());
      harness.receiver.twiml('/dial-result', twiml('<Say>Thanks for calling</Say><Hangup/>'));
      const ringing = await callFromPhone(number);
      expect(ringing.status).toBe(201);
      const sid = ringing.body.sid;
      // answerOnBridge: the caller's call rings until a client answers.
      expect(ringing.body.status).toBe('ringing');
      expect(ringing.body.legs.map((l) => [l.to, l.status, l.direction, l.from, l.parent_call_sid])).toEqual([
        ['client:alice', 'ringing', 'outbound-dial', PHONE, sid],
        ['client:bob', 'ringing', 'outbound-dial', PHONE, sid],
        ['client:carol', 'ringing', 'outbound-dial', PHONE, sid],
      ]);
      expect(ringing.body.legs[0]?.parameters).toEqual({ caller: PHONE, called: 'main' });

      const answered = await control(sid, 'answer', { by: 'client:bob' });
      expect(answered.status).toBe(200);
      expect(answered.body.status).toBe('in-progress');
      expect(answered.body.answeredByParty).toBe('client:bob');
      expect(answered.body.legs.map((l) => [l.to, l.status])).toEqual([
        ['client:alice', 'canceled'],
        ['client:bob', 'in-progress'],
        ['client:carol', 'canceled'],
      ]);
      // Too late for the others.
      expect((await control(sid, 'answer', { by: 'client:alice' })).status).toBe(409);

      const bob = answered.body.legs[1]?.sid ?? '';
      const ended = await control(bob, 'hangup');
      expect(ended.body).toMatchObject({ status: 'completed', said: ['Thanks for calling'] });

      const legStatus = requestsTo('/leg-status');
      expect(legStatus.map((r) => [r.params.To, r.params.CallStatus, r.params.SequenceNumber])).toEqual([
        ['client:alice', 'initiated', '0'],
        ['client:alice', 'ringing', '1'],
        ['client:bob', 'initiated', '0'],
        ['client:bob', 'ringing', '1'],
        ['client:carol', 'initiated', '0'],
        ['client:carol', 'ringing', '1'],
        ['client:bob', 'in-progress', '2'],
        ['client:alice', 'canceled', '2'],
        ['client:carol', 'canceled', '2'],
        ['client:bob', 'completed', '3'],
      ]);
      for (const request of legStatus) {
        expect(signedWith(account.authToken, request)).toBe(true);
        expect(request.params).toMatchObject({
          ParentCallSid: sid,
          Direction: 'outbound-dial',
          From: PHONE,
          AccountSid: account.accountSid,
          CallbackSource: 'call-progress-events',
        });
      }
      // Relative statusCallback URLs resolve against the document's URL, query kept.
      expect(legStatus[0]?.url).toBe(`${harness.receiver.base}/leg-status?who=alice`);
      expect(legStatus.at(-1)?.params.CallDuration).toMatch(/^\d+$/);

      const [action] = requestsTo('/dial-result');
      expect(action?.params).toMatchObject({
        CallSid: sid,
        CallStatus: 'in-progress',
        DialCallStatus: 'completed',
        DialCallSid: bob,
        DialBridged: 'true',
      });
      expect(action?.params.DialCallDuration).toMatch(/^\d+$/);
      expect(signedWith(account.authToken, action as ReceivedRequest)).toBe(true);
      expect(requestsTo('/status').map((r) => r.params.CallStatus)).toEqual(['completed']);
      const story = await view(sid);
      expect(story.twiml.map((t) => t.purpose)).toEqual(['voice-url', 'dial-action']);
      expect(story.legs[1]?.callbacks.map((c) => [c.event, c.callStatus, c.status])).toEqual([
        ['initiated', 'initiated', 200],
        ['ringing', 'ringing', 200],
        ['answered', 'in-progress', 200],
        ['completed', 'completed', 200],
      ]);
    });

    it('with nobody answering before the timeout: every leg no-answer, and the action hears DialCallStatus=no-answer', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, ringAll());
      harness.receiver.twiml('/dial-result', twiml('<Say>Nobody is available</Say><Hangup/>'));
      const ringing = await callFromPhone(number);
      const ended = await control(ringing.body.sid, 'advance');
      expect(ended.body).toMatchObject({ status: 'completed', said: ['Nobody is available'] });
      expect(ended.body.legs.map((l) => l.status)).toEqual(['no-answer', 'no-answer', 'no-answer']);
      expect(requestsTo('/dial-result')[0]?.params).toMatchObject({ DialCallStatus: 'no-answer', DialBridged: 'false' });
      expect(requestsTo('/leg-status').filter((r) => r.params.CallStatus === 'no-answer')).toHaveLength(3);
    });

    it('when every client declines, the Dial ends busy; when the caller hangs up while ringing, the legs are canceled', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, ringAll());
      const declined = await callFromPhone(number);
      for (const identity of ['alice', 'bob', 'carol']) {
        expect((await control(declined.body.sid, 'hangup', { by: `client:${identity}` })).status).toBe(200);
      }
      expect((await view(declined.body.sid)).status).toBe('completed');
      expect(requestsTo('/dial-result')[0]?.params.DialCallStatus).toBe('busy');

      const abandoned = await callFromPhone(number);
      const gone = await control(abandoned.body.sid, 'hangup');
      expect(gone.body.status).toBe('canceled');
      expect(gone.body.legs.map((l) => l.status)).toEqual(['canceled', 'canceled', 'canceled']);
      expect(requestsTo('/dial-result')[1]?.params).toMatchObject({ DialCallStatus: 'canceled', CallStatus: 'canceled' });
      expect((await control(abandoned.body.sid, 'hangup')).status).toBe(409);
    });

    it('without an action goes on with the next verb; the caller hanging up while bridged ends both', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(
        account,
        twiml('<Dial timeout="10"><Client>dave</Client></Dial><Say>after the dial</Say>'),
      );
      const first = await callFromPhone(number);
      // Without answerOnBridge the caller's call is answered at once.
      expect(first.body.status).toBe('in-progress');
      await control(first.body.sid, 'answer');
      const dave = first.body.legs[0]?.sid ?? '';
      expect((await control(dave, 'hangup')).body).toMatchObject({ status: 'completed', said: ['after the dial'] });

      const second = await callFromPhone(number);
      await control(second.body.sid, 'answer', { by: 'client:dave' });
      const ended = await control(second.body.sid, 'hangup', { by: PHONE });
      expect(ended.body.status).toBe('completed');
      expect(ended.body.said).toEqual([]);
      expect(ended.body.legs[0]?.status).toBe('completed');
    });
    it('through the Call resource: Twiml replaces a ringing Dial (legs canceled, no action), Status ends a call', async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, ringAll());
      const update = (sid: string, form: Record<string, string>) =>
        call<Record<string, unknown> & { code?: number }>(
          'POST',
          `/2010-04-01/Accounts/${account.accountSid}/Calls/${sid}.json`,
          {
            auth: account,
            form,
          },
        );
      const ringing = await callFromPhone(number);
      const redirected = await update(ringing.body.sid, {
        Twiml: twiml('<Say>Nobody can take your call</Say><Hangup/>'),
      });
      expect(redirected.status).toBe(200);
      await expect.poll(async () => (await view(ringing.body.sid)).status).toBe('completed');
      const story = await view(ringing.body.sid);
      expect(story.said).toEqual(['Nobody can take your call']);
      expect(story.legs.map((l) => l.status)).toEqual(['canceled', 'canceled', 'canceled']);
      expect(requestsTo('/dial-result')).toHaveLength(0);
      expect((await update(ringing.body.sid, { Twiml: twiml('<Say>late</Say>') })).body.code).toBe(21220);

      const bridged = await callFromPhone(number);
      await control(bridged.body.sid, 'answer', { by: 'client:alice' });
      // Canceling leaves an answered call alone; completing hangs it up.
      await update(bridged.body.sid, { Status: 'canceled' });
      expect((await view(bridged.body.sid)).status).toBe('in-progress');
      await update(bridged.body.sid, { Status: 'completed' });
      await expect.poll(async () => (await view(bridged.body.sid)).status).toBe('completed');
      expect((await view(bridged.body.sid)).legs[0]?.status).toBe('completed');
      expect((await update(bridged.body.sid, { Status: 'ringing' })).status).toBe(400);
    });
  });

  describe('a Voice SDK client calls out', () => {
    it("with its token: the TwiML application's Voice URL hears the client and its params; <Dial><Number> rings the outside phone", async () => {
      const account = await newAccount();
      const callerId = voiceNumber(account)?.phone_number ?? '';
      const app = await application(account, `${harness.receiver.base}/outbound`);
      harness.receiver.twiml('/outbound', (request) =>
        twiml(
          `<Dial callerId="${request.params.From}" answerOnBridge="true" action="/outbound-result">` +
            `<Number statusCallbackEvent="ringing answered completed" statusCallback="/number-status">${request.params.To}</Number></Dial>`,
        ),
      );
      const token = accessToken(account, await apiKey(account), { identity: 'alice', applicationSid: app });
      const placed = await call<CallView>('POST', '/_emulator/clients/alice/calls', {
        json: { token, params: { To: OUTSIDE, From: callerId, note: 'hi', AccountSid: demo.accountSid } },
      });
      expect(placed.status).toBe(201);
      const [request] = requestsTo('/outbound');
      expect(request?.params).toMatchObject({
        AccountSid: account.accountSid,
        ApplicationSid: app,
        CallSid: placed.body.sid,
        CallStatus: 'ringing',
        Direction: 'inbound',
        Caller: 'client:alice',
        To: OUTSIDE,
        From: callerId,
        note: 'hi',
      });
      expect(signedWith(account.authToken, request as ReceivedRequest)).toBe(true);
      expect(placed.body).toMatchObject({ from: 'client:alice', to: OUTSIDE, status: 'ringing', application_sid: app });
      expect(placed.body.legs.map((l) => [l.from, l.to, l.status])).toEqual([[callerId, OUTSIDE, 'ringing']]);

      const leg = placed.body.legs[0]?.sid ?? '';
      expect((await control(placed.body.sid, 'answer', { by: OUTSIDE })).body.status).toBe('in-progress');
      const pressed = await control(leg, 'digits', { digits: '12w#*' });
      expect(pressed.body.legs[0]?.digits.map((d) => d.digits)).toEqual(['12w#*']);
      expect((await control(leg, 'digits', { digits: '12a' })).body.error).toMatch(/^Illegal character passed into sendDigits/);
      await control(leg, 'hangup');
      expect(requestsTo('/number-status').map((r) => r.params.CallStatus)).toEqual(['ringing', 'in-progress', 'completed']);
      expect(requestsTo('/outbound-result')[0]?.params).toMatchObject({ DialCallStatus: 'completed', DialCallSid: leg });
      await expect.poll(() => requestsTo('/app-status').map((r) => r.params.CallStatus)).toEqual(['completed']);
      expect((await view(placed.body.sid)).status).toBe('completed');
    });

    it('fails a <Number> leg without a number as callerId (13214) or with a bad number (13223); a bare number in <Dial> is dialled', async () => {
      const account = await newAccount();
      const app = await application(account, `${harness.receiver.base}/outbound`);
      harness.receiver.twiml('/outbound', twiml(`<Dial action="/outbound-result"><Number>${OUTSIDE}</Number></Dial>`));
      const place = () =>
        call<CallView>('POST', '/_emulator/clients/alice/calls', {
          json: { accountSid: account.accountSid, applicationSid: app, params: { To: OUTSIDE } },
        });
      const noCallerId = await place();
      expect(noCallerId.body).toMatchObject({ status: 'completed', errors: [{ code: 13214 }] });
      expect(noCallerId.body.legs.map((l) => l.status)).toEqual(['failed']);
      expect(requestsTo('/outbound-result')[0]?.params.DialCallStatus).toBe('failed');

      harness.receiver.twiml('/outbound', twiml('<Dial callerId="+14155550101"><Number>12345</Number></Dial>'));
      expect((await place()).body.errors.map((e) => e.code)).toEqual([13223]);

      harness.receiver.twiml('/outbound', twiml(`<Dial callerId="+14155550101" timeout="3">${OUTSIDE}</Dial>`));
      const bare = await place();
      expect(bare.body.legs.map((l) => [l.from, l.to, l.status])).toEqual([['+14155550101', OUTSIDE, 'ringing']]);
    });

    it('refuses a token that is not valid, that names someone else, or that has no outgoing application', async () => {
      const account = await newAccount();
      const key = await apiKey(account);
      const app = await application(account, `${harness.receiver.base}/outbound`);
      const place = (identity: string, token: string) =>
        call('POST', `/_emulator/clients/${identity}/calls`, { json: { token, params: { To: OUTSIDE } } });
      expect((await place('alice', 'nonsense')).status).toBe(401);
      expect((await place('bob', accessToken(account, key, { applicationSid: app }))).status).toBe(403);
      expect((await place('alice', accessToken(account, key))).status).toBe(403);
      expect((await place('al ice', accessToken(account, key, { applicationSid: app }))).status).toBe(400);
      expect(requestsTo('/outbound')).toHaveLength(0);
      // Without a token, the account and application are named outright.
      const named = await call<CallView>('POST', '/_emulator/clients/bob/calls', {
        json: { accountSid: account.accountSid, applicationSid: app, params: { To: OUTSIDE } },
      });
      expect(named.status).toBe(201);
      expect(requestsTo('/outbound')[0]?.params).toMatchObject({ From: 'client:bob', Caller: 'client:bob', To: OUTSIDE });
    });
  });

  describe('Access Tokens', () => {
    const verify = async (token: string) =>
      (await call<TokenCheck>('POST', '/_emulator/tokens/verify', { json: { token } })).body;

    it('accepts a token signed with an API key of the account, for an application of that account', async () => {
      const account = await newAccount();
      const key = await apiKey(account);
      const app = await application(account, `${harness.receiver.base}/outbound`);
      const check = await verify(accessToken(account, key, { identity: 'user_42', applicationSid: app }));
      expect(check).toMatchObject({
        valid: true,
        identity: 'user_42',
        accountSid: account.accountSid,
        apiKeySid: key.sid,
        applicationSid: app,
        error: null,
        grants: { identity: 'user_42', voice: { incoming: { allow: true }, outgoing: { application_sid: app } } },
      });
    });

    it("refuses with Twilio's codes: wrong secret, expired, not yet valid, too long, other account's application, not a JWT", async () => {
      const account = await newAccount();
      const other = await newAccount();
      const key = await apiKey(account);
      const app = await application(account, `${harness.receiver.base}/outbound`);
      const otherApp = await application(other, `${harness.receiver.base}/outbound`);
      const code = async (token: string) => {
        const check = await verify(token);
        expect(check.valid).toBe(false);
        return check.error?.code;
      };
      expect(await code(accessToken(account, { ...key, secret: 'x'.repeat(32) }, { applicationSid: app }))).toBe(20107);
      expect(await code(accessToken(account, key, { applicationSid: app, ttl: -10 }))).toBe(20104);
      expect(await code(accessToken(account, key, { applicationSid: app, nbf: Math.floor(Date.now() / 1000) + 600 }))).toBe(
        20105,
      );
      expect(await code(accessToken(account, key, { applicationSid: app, ttl: 25 * 3600 }))).toBe(20157);
      expect(await code(accessToken(account, key, { applicationSid: otherApp }))).toBe(20106);
      // A key of another account does not sign for this one.
      expect(await code(accessToken(other, key, { applicationSid: otherApp }))).toBe(20103);
      expect(await code('not.a.jwt')).toBe(20101);
      expect((await call('POST', '/_emulator/tokens/verify', { json: {} })).status).toBe(400);
    });
  });

  describe('REST', () => {
    it("lists calls newest first with Twilio's fields, paging and filters, and fetches one", async () => {
      const account = await newAccount();
      const number = await answerCallsWith(account, twiml('<Dial><Client>erin</Client></Dial>'));
      const first = await callFromPhone(number);
      await control(first.body.sid, 'answer');
      await control(first.body.sid, 'hangup');
      const second = await callFromPhone(number, OUTSIDE);

      type Call = Record<string, unknown> & { sid: string };
      const list = await call<{ calls: Call[]; next_page_uri: string | null }>(
        'GET',
        `/2010-04-01/Accounts/${account.accountSid}/Calls.json?PageSize=2`,
        { auth: account },
      );
      expect(list.status).toBe(200);
      const leg = second.body.legs[0]?.sid;
      expect(list.body.calls.map((c) => c.sid)).toEqual([leg, second.body.sid]);
      expect(list.body.next_page_uri).toContain('PageToken=PA');
      const byFrom = await call<{ calls: Call[] }>(
        'GET',
        `/2010-04-01/Accounts/${account.accountSid}/Calls.json?From=${encodeURIComponent(PHONE)}&Status=completed`,
        { auth: account },
      );
      // The leg calls from the caller's number too (no callerId): both are listed.
      expect(byFrom.body.calls.map((c) => c.sid)).toEqual([first.body.legs[0]?.sid, first.body.sid]);

      const fetched = await call<Call>('GET', `/2010-04-01/Accounts/${account.accountSid}/Calls/${first.body.sid}.json`, {
        auth: account,
      });
      expect(fetched.body).toMatchObject({
        sid: first.body.sid,
        account_sid: account.accountSid,
        parent_call_sid: null,
        direction: 'inbound',
        from: PHONE,
        from_formatted: '(415) 555-0199',
        to: number,
        status: 'completed',
        answered_by: null,
        api_version: '2010-04-01',
        phone_number_sid: voiceNumber(account)?.sid,
        uri: `/2010-04-01/Accounts/${account.accountSid}/Calls/${first.body.sid}.json`,
      });
      expect(fetched.body.duration).toMatch(/^\d+$/);
      expect(fetched.body.start_time).toMatch(/\+0000$/);
      expect(fetched.body.end_time).toMatch(/\+0000$/);
      const child = await call<Call>('GET', `/2010-04-01/Accounts/${account.accountSid}/Calls/${first.body.legs[0]?.sid}.json`, {
        auth: account,
      });
      expect(child.body).toMatchObject({ parent_call_sid: first.body.sid, direction: 'outbound-dial', to: 'client:erin' });
      expect(
        (await call('GET', `/2010-04-01/Accounts/${account.accountSid}/Calls/CA${'0'.repeat(32)}.json`, { auth: account }))
          .status,
      ).toBe(404);
      expect((await call('GET', `/2010-04-01/Accounts/${account.accountSid}/Calls.json`)).status).toBe(401);
    });
  });
});

describe('Twilio emulator calls across a restart', () => {
  const folder = mkdtempSync(join(tmpdir(), 'twilio-emulator-calls-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('ends a call left ringing (failed) or in progress (completed): its TwiML run was in memory', async () => {
    const receiver = await startReceiver();
    const options = { demo, stateFile: join(folder, 'state.json'), log: quietLogger };
    let emulator = await startTwilioEmulator({ ...options, port: await freePort() });
    const auth = `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}`;
    const numbers = await fetch(`${emulator.url}/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers.json`, {
      headers: { authorization: auth },
    });
    const main = ((await numbers.json()) as { incoming_phone_numbers: { sid: string }[] }).incoming_phone_numbers[0];
    await fetch(`${emulator.url}/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers/${main?.sid}.json`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ VoiceUrl: `${receiver.base}/voice` }).toString(),
    });
    receiver.twiml('/voice', twiml('<Dial answerOnBridge="true"><Client>alice</Client></Dial>'));
    const place = async () => {
      const res = await fetch(`${emulator.url}/_emulator/calls`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: PHONE, to: '+14155550101' }),
      });
      return (await res.json()) as CallView;
    };
    const ringing = await place();
    const answered = await place();
    await fetch(`${emulator.url}/_emulator/calls/${answered.sid}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await emulator.stop();

    emulator = await startTwilioEmulator({ ...options, port: await freePort() });
    try {
      const status = async (sid: string) =>
        ((await (await fetch(`${emulator.url}/_emulator/calls/${sid}`)).json()) as CallView).status;
      expect(await status(ringing.sid)).toBe('failed');
      expect(await status(answered.sid)).toBe('completed');
    } finally {
      await emulator.stop();
      await receiver.stop();
    }
  });
});
