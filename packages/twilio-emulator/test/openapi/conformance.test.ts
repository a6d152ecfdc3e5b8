import { describe, expect, it } from 'vitest';
import { useTwilioEmulator } from '../../src/test-harness';
import { conformanceProblems, documentedAnswer, documentedPropertyCount, spec } from './schema-check';

/**
 * The emulator's REST answers against Twilio's own OpenAPI descriptions (api_v2010.subset.json and
 * messaging_v1.subset.json): for
 * every operation it serves, the documented status, and every instance with each documented property
 * (null only where nullable), of the documented type, enum and pattern, dates in RFC 2822, and nothing
 * undocumented. List answers are checked whole: the page's fields and each item.
 */

const PHONE = '+14155550199';
const ACCOUNT = '/2010-04-01/Accounts/{AccountSid}';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { voice: boolean; sms: boolean } }[];
}

const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

describe("the emulator's REST API against Twilio's OpenAPI description", () => {
  const harness = useTwilioEmulator();
  const { call } = harness;
  const exercised = new Set<string>();

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;

  /**
   * Requests `path` (the documented `template` with its SIDs filled in) and checks the answer against
   * what Twilio documents for that operation; answers the body for the next step.
   */
  async function conforming<T = Record<string, unknown>>(
    account: Account,
    method: 'GET' | 'POST' | 'DELETE',
    template: string,
    path: string,
    form?: Record<string, string>,
  ): Promise<T> {
    const res = await call<T>(method, path, { auth: account, form: form ?? (method === 'GET' ? undefined : {}) });
    const documented = documentedAnswer(template, method.toLowerCase(), res.status);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(documented.status);
    if (documented.schema) expect(conformanceProblems(documented.schema, res.body), `${method} ${path}`).toEqual([]);
    else expect(res.body).toBeUndefined();
    exercised.add(`${method.toLowerCase()} ${template}`);
    return res.body;
  }

  it('answers the Account as documented', async () => {
    const account = await newAccount();
    await conforming(account, 'GET', '/2010-04-01/Accounts/{Sid}.json', `/2010-04-01/Accounts/${account.accountSid}.json`);
  });

  it('lists, fetches and updates IncomingPhoneNumbers as documented, with and without an application', async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const list = `${ACCOUNT}/IncomingPhoneNumbers.json`;
    const one = `${ACCOUNT}/IncomingPhoneNumbers/{Sid}.json`;
    // A page of two of the four numbers, so next_page_uri is a URI; then the page after it.
    const page = await conforming<{ next_page_uri: string }>(
      account,
      'GET',
      list,
      `${base}/IncomingPhoneNumbers.json?PageSize=2`,
    );
    await conforming(account, 'GET', list, page.next_page_uri);
    const [number] = account.numbers;
    await conforming(account, 'GET', one, `${base}/IncomingPhoneNumbers/${number?.sid}.json`);
    const application = await harness.application(account, { VoiceUrl: 'https://example.com/voice' });
    await conforming(account, 'POST', one, `${base}/IncomingPhoneNumbers/${number?.sid}.json`, {
      VoiceApplicationSid: application,
      SmsUrl: 'https://example.com/sms',
      SmsMethod: 'GET',
    });
  });

  it('creates, lists, fetches, updates and deletes Applications as documented', async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const list = `${ACCOUNT}/Applications.json`;
    const one = `${ACCOUNT}/Applications/{Sid}.json`;
    const created = await conforming<{ sid: string }>(account, 'POST', list, `${base}/Applications.json`, {
      FriendlyName: 'Switchboard',
      VoiceUrl: 'https://example.com/voice',
      StatusCallback: 'https://example.com/status',
    });
    await conforming(account, 'POST', list, `${base}/Applications.json`, {});
    await conforming(account, 'GET', list, `${base}/Applications.json?PageSize=1`);
    await conforming(account, 'GET', one, `${base}/Applications/${created.sid}.json`);
    await conforming(account, 'POST', one, `${base}/Applications/${created.sid}.json`, { SmsUrl: 'https://example.com/sms' });
    await conforming(account, 'DELETE', one, `${base}/Applications/${created.sid}.json`);
  });

  it('creates (with the secret, once), lists, fetches, updates and deletes Keys as documented', async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const list = `${ACCOUNT}/Keys.json`;
    const one = `${ACCOUNT}/Keys/{Sid}.json`;
    const created = await conforming<{ sid: string }>(account, 'POST', list, `${base}/Keys.json`, { FriendlyName: 'voice' });
    await conforming(account, 'GET', list, `${base}/Keys.json`);
    await conforming(account, 'GET', one, `${base}/Keys/${created.sid}.json`);
    await conforming(account, 'POST', one, `${base}/Keys/${created.sid}.json`, { FriendlyName: 'renamed' });
    await conforming(account, 'DELETE', one, `${base}/Keys/${created.sid}.json`);
  });

  it('creates, lists and fetches Messages as documented: queued, delivered, undelivered and received', async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const list = `${ACCOUNT}/Messages.json`;
    const one = `${ACCOUNT}/Messages/{Sid}.json`;
    const from = account.numbers.find((n) => n.capabilities.sms)?.phone_number ?? '';
    const sent = await conforming<{ sid: string }>(account, 'POST', list, `${base}/Messages.json`, {
      From: from,
      To: PHONE,
      Body: 'Your order is ready 📦',
    });
    const failed = await conforming<{ sid: string }>(account, 'POST', list, `${base}/Messages.json`, {
      From: from,
      To: '+15005550006',
      Body: 'Never arrives',
    });
    expect((await call('POST', '/_emulator/messages', { json: { from: PHONE, to: from, body: 'Thanks!' } })).status).toBe(201);
    const status = async (sid: string) =>
      (await call<{ status: string }>('GET', `${base}/Messages/${sid}.json`, { auth: account })).body.status;
    await expect.poll(() => status(sent.sid)).toBe('delivered');
    await expect.poll(() => status(failed.sid)).toBe('undelivered');
    for (const sid of [sent.sid, failed.sid]) await conforming(account, 'GET', one, `${base}/Messages/${sid}.json`);
    const page = await conforming<{ next_page_uri: string }>(account, 'GET', list, `${base}/Messages.json?PageSize=2`);
    await conforming(account, 'GET', list, page.next_page_uri);
  });

  it("lists and fetches an MMS's Media as documented, and the MMS itself", async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const to = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms)?.phone_number ?? '';
    const mms = await call<{ sid: string }>('POST', '/_emulator/messages', {
      json: {
        from: PHONE,
        to,
        media: [{ contentType: 'image/jpeg' }, { contentType: 'image/png' }, { contentType: 'image/gif' }],
      },
    });
    expect(mms.status).toBe(201);
    await conforming(account, 'GET', `${ACCOUNT}/Messages/{Sid}.json`, `${base}/Messages/${mms.body.sid}.json`);
    const list = `${ACCOUNT}/Messages/{MessageSid}/Media.json`;
    const page = await conforming<{ next_page_uri: string; media_list: { sid: string }[] }>(
      account,
      'GET',
      list,
      `${base}/Messages/${mms.body.sid}/Media.json?PageSize=2`,
    );
    await conforming(account, 'GET', list, page.next_page_uri);
    const [first] = page.media_list;
    await conforming(
      account,
      'GET',
      `${ACCOUNT}/Messages/{MessageSid}/Media/{Sid}.json`,
      `${base}/Messages/${mms.body.sid}/Media/${first?.sid}.json`,
    );
  });

  it('lists and fetches Recordings as documented: recording, completed and absent', async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const number = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
    harness.receiver.twiml('/voice', twiml('<Record maxLength="60" action="/recorded"/>'));
    harness.receiver.twiml('/recorded', twiml('<Hangup/>'));
    await call('POST', `${base}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    const list = `${ACCOUNT}/Recordings.json`;
    const one = `${ACCOUNT}/Recordings/{Sid}.json`;
    const placed = async () =>
      (await call<{ sid: string }>('POST', '/_emulator/calls', { json: { from: PHONE, to: number?.phone_number } })).body.sid;
    const recording = await placed();
    const under = await conforming<{ recordings: { sid: string }[] }>(account, 'GET', list, `${base}/Recordings.json`);
    await conforming(account, 'GET', one, `${base}/Recordings/${under.recordings[0]?.sid}.json`);
    await call('POST', `/_emulator/calls/${recording}/speak`, { json: { seconds: 7 } });
    await call('POST', `/_emulator/calls/${recording}/hangup`, { json: {} });
    await call('POST', `/_emulator/calls/${await placed()}/hangup`, { json: {} });
    const page = await conforming<{ next_page_uri: string; recordings: { sid: string }[] }>(
      account,
      'GET',
      list,
      `${base}/Recordings.json?PageSize=1`,
    );
    await conforming(account, 'GET', list, page.next_page_uri);
    await conforming(account, 'GET', list, `${base}/Recordings.json?CallSid=${recording}`);
    for (const { sid } of (await call<{ recordings: { sid: string }[] }>('GET', `${base}/Recordings.json`, { auth: account }))
      .body.recordings)
      await conforming(account, 'GET', one, `${base}/Recordings/${sid}.json`);
  });

  it("creates, lists, fetches, pauses, resumes, stops and deletes a call's Recordings as documented", async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const number = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
    harness.receiver.twiml('/voice', twiml('<Pause length="600"/>'));
    await call('POST', `${base}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    const placed = await call<{ sid: string }>('POST', '/_emulator/calls', { json: { from: PHONE, to: number?.phone_number } });
    const list = `${ACCOUNT}/Calls/{CallSid}/Recordings.json`;
    const one = `${ACCOUNT}/Calls/{CallSid}/Recordings/{Sid}.json`;
    const calls = `${base}/Calls/${placed.body.sid}/Recordings`;
    const created = await conforming<{ sid: string }>(account, 'POST', list, `${calls}.json`, {
      RecordingChannels: 'dual',
      RecordingStatusCallback: `${harness.receiver.base}/recording`,
    });
    await conforming(account, 'GET', list, `${calls}.json`);
    await conforming(account, 'GET', one, `${calls}/${created.sid}.json`);
    await conforming(account, 'POST', one, `${calls}/${created.sid}.json`, { Status: 'paused' });
    await conforming(account, 'POST', one, `${calls}/Twilio.CURRENT.json`, { Status: 'in-progress' });
    await conforming(account, 'POST', one, `${calls}/${created.sid}.json`, { Status: 'stopped' });
    await conforming(account, 'GET', one, `${calls}/${created.sid}.json`);
    await conforming(account, 'DELETE', one, `${calls}/${created.sid}.json`);
    await call('POST', `/_emulator/calls/${placed.body.sid}/hangup`, { json: {} });
  });

  it('lists, fetches and updates Calls as documented: a call, its ringing and answered legs, and its end', async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const list = `${ACCOUNT}/Calls.json`;
    const one = `${ACCOUNT}/Calls/{Sid}.json`;
    const number = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
    harness.receiver.twiml('/voice', twiml('<Dial><Client>alice</Client><Number>+14155550142</Number></Dial>'));
    await call('POST', `${base}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    const ringing = await call<{ sid: string; status: string; legs: { sid: string }[] }>('POST', '/_emulator/calls', {
      json: { from: PHONE, to: number?.phone_number },
    });
    expect(ringing.body.legs).toHaveLength(2);
    await conforming(account, 'GET', list, `${base}/Calls.json`);
    await conforming(account, 'GET', one, `${base}/Calls/${ringing.body.legs[0]?.sid}.json`);
    expect((await call('POST', `/_emulator/calls/${ringing.body.sid}/answer`, { json: { by: 'client:alice' } })).status).toBe(
      200,
    );
    await conforming(account, 'GET', one, `${base}/Calls/${ringing.body.sid}.json`);
    await conforming(account, 'POST', one, `${base}/Calls/${ringing.body.sid}.json`, { Status: 'completed' });
    await expect
      .poll(
        async () =>
          (await call<{ status: string }>('GET', `${base}/Calls/${ringing.body.sid}.json`, { auth: account })).body.status,
      )
      .toBe('completed');
    const ended = await conforming<{ calls: { duration: string | null; end_time: string | null }[] }>(
      account,
      'GET',
      list,
      `${base}/Calls.json?PageSize=1`,
    );
    expect(ended.calls[0]?.end_time).not.toBeNull();
  });

  it('lists, fetches and ends Conferences, and creates, lists, fetches, holds and removes their Participants as documented', async () => {
    const account = await newAccount();
    const base = `/2010-04-01/Accounts/${account.accountSid}`;
    const conferences = `${ACCOUNT}/Conferences.json`;
    const conference = `${ACCOUNT}/Conferences/{Sid}.json`;
    const participants = `${ACCOUNT}/Conferences/{ConferenceSid}/Participants.json`;
    const participant = `${ACCOUNT}/Conferences/{ConferenceSid}/Participants/{CallSid}.json`;
    const number = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
    harness.receiver.twiml('/voice', twiml('<Dial><Conference startConferenceOnEnter="false">desk</Conference></Dial>'));
    await call('POST', `${base}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    const caller = await call<{ sid: string }>('POST', '/_emulator/calls', { json: { from: PHONE, to: number?.phone_number } });
    // Waiting to start: `init`, its reason null.
    const listed = await conforming<{ conferences: { sid: string }[] }>(account, 'GET', conferences, `${base}/Conferences.json`);
    const sid = listed.conferences[0]?.sid ?? '';
    await conforming(account, 'GET', conference, `${base}/Conferences/${sid}.json`);
    const agent = await conforming<{ call_sid: string }>(
      account,
      'POST',
      participants,
      `${base}/Conferences/${sid}/Participants.json`,
      {
        From: number?.phone_number ?? '',
        To: 'client:alice',
        Label: 'agent',
      },
    );
    await call('POST', `/_emulator/calls/${agent.call_sid}/answer`, { json: {} });
    await conforming(account, 'GET', participants, `${base}/Conferences/${sid}/Participants.json?PageSize=1`);
    await conforming(account, 'GET', participant, `${base}/Conferences/${sid}/Participants/${caller.body.sid}.json`);
    await conforming(account, 'POST', participant, `${base}/Conferences/${sid}/Participants/${caller.body.sid}.json`, {
      Hold: 'true',
    });
    await conforming(account, 'DELETE', participant, `${base}/Conferences/${sid}/Participants/${agent.call_sid}.json`);
    await conforming(account, 'POST', conference, `${base}/Conferences/${sid}.json`, { Status: 'completed' });
    const ended = await conforming<{ conferences: { reason_conference_ended: string }[] }>(
      account,
      'GET',
      conferences,
      `${base}/Conferences.json?Status=completed`,
    );
    expect(ended.conferences[0]?.reason_conference_ended).toBe('conference-ended-via-api');
  });

  it('creates, lists, fetches, updates and deletes Messaging Services and their PhoneNumbers as documented (v1)', async () => {
    const account = await newAccount();
    const base = harness.emulator.url;
    const services = '/v1/Services';
    const service = '/v1/Services/{Sid}';
    const numbers = '/v1/Services/{ServiceSid}/PhoneNumbers';
    const number = '/v1/Services/{ServiceSid}/PhoneNumbers/{Sid}';
    const created = await conforming<{ sid: string }>(account, 'POST', services, '/v1/Services', {
      FriendlyName: 'A2P 10DLC',
      InboundRequestUrl: 'https://example.com/inbound',
      StatusCallback: 'https://example.com/status',
    });
    await conforming(account, 'POST', services, '/v1/Services', { FriendlyName: 'defaults only' });
    // A page of one of the two, so next_page_url is a URL; then the page after it.
    const page = await conforming<{ meta: { next_page_url: string } }>(account, 'GET', services, '/v1/Services?PageSize=1');
    await conforming(account, 'GET', services, page.meta.next_page_url.slice(base.length));
    await conforming(account, 'GET', service, `/v1/Services/${created.sid}`);
    await conforming(account, 'POST', service, `/v1/Services/${created.sid}`, {
      UseInboundWebhookOnNumber: 'true',
      FallbackUrl: 'https://example.com/fallback',
    });
    const [first, second] = account.numbers.filter((n) => n.capabilities.sms);
    for (const sms of [first, second])
      await conforming(account, 'POST', numbers, `/v1/Services/${created.sid}/PhoneNumbers`, { PhoneNumberSid: sms?.sid ?? '' });
    const pool = await conforming<{ meta: { next_page_url: string } }>(
      account,
      'GET',
      numbers,
      `/v1/Services/${created.sid}/PhoneNumbers?PageSize=1`,
    );
    await conforming(account, 'GET', numbers, pool.meta.next_page_url.slice(base.length));
    await conforming(account, 'GET', number, `/v1/Services/${created.sid}/PhoneNumbers/${first?.sid}`);
    await conforming(account, 'DELETE', number, `/v1/Services/${created.sid}/PhoneNumbers/${first?.sid}`);
    await conforming(account, 'DELETE', service, `/v1/Services/${created.sid}`);
  });

  it('has driven every operation of the subset, and says how much of the description it checked', () => {
    const documented = Object.entries(spec.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`));
    expect([...exercised].sort()).toEqual(documented.sort());
    const schemas = [
      'api.v2010.account',
      'api.v2010.account.incoming_phone_number',
      'api.v2010.account.application',
      'api.v2010.account.key',
      'api.v2010.account.new_key',
      'api.v2010.account.message',
      'api.v2010.account.message.media',
      'api.v2010.account.call',
      'api.v2010.account.recording',
      'api.v2010.account.call.call_recording',
      'api.v2010.account.conference',
      'api.v2010.account.conference.participant',
      'messaging.v1.service',
      'messaging.v1.service.phone_number',
    ];
    // A tripwire as much as a figure: a new subset (extract-subset.ts) changes what is checked.
    const properties = schemas.reduce((sum, name) => sum + documentedPropertyCount(name), 0);
    expect({ operations: documented.length, properties }).toEqual({ operations: 46, properties: 228 });
  });
});
