import RequestClient from 'twilio/lib/base/RequestClient';
import Twilio from 'twilio/lib/rest/Twilio';
import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { describe, expect, it } from 'vitest';
import type { ConferenceRecord } from '../model';
import { useTwilioEmulator } from '../test-harness';
import type { CallView } from './representation';

const PHONE = '+14155550199';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { voice: boolean; sms: boolean } }[];
}

interface Participant {
  call_sid: string;
  conference_sid: string;
  label: string | null;
  hold: boolean;
  muted: boolean;
  status: string;
}

const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

describe('Twilio emulator conferences', () => {
  const harness = useTwilioEmulator();
  const { call } = harness;

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;
  async function answerCallsWith(account: Account, document: string) {
    harness.receiver.twiml('/voice', document);
    const number = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
    await call('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    return number?.phone_number ?? '';
  }
  const api = (account: Account, path: string) => `/2010-04-01/Accounts/${account.accountSid}${path}`;
  const control = (sid: string, action: string, json: unknown = {}) =>
    call<CallView>('POST', `/_emulator/calls/${sid}/${action}`, { json });
  const conferenceView = async (sidOrName: string) =>
    (await call<ConferenceRecord>('GET', `/_emulator/conferences/${encodeURIComponent(sidOrName)}`)).body;
  const callView = async (sid: string) => (await call<CallView>('GET', `/_emulator/calls/${sid}`)).body;
  const conferenceEvents = (conference: ConferenceRecord) => conference.callbacks.map((c) => c.event);
  const heard = (conference: ConferenceRecord, callSid: string) =>
    conference.participants.find((p) => p.callSid === callSid)?.heard.map((h) => h.what) ?? [];

  it('puts a caller in a conference to wait, dials an agent in, holds the caller with the HoldUrl, and ends when the caller hangs up on hold', async () => {
    const account = await newAccount();
    const base = harness.receiver.base;
    const number = await answerCallsWith(
      account,
      twiml(
        `<Dial><Conference startConferenceOnEnter="false" endConferenceOnExit="true" waitUrl="/wait" beep="false"
          statusCallback="/conference" statusCallbackEvent="start end join leave hold mute" participantLabel="customer">support-1</Conference></Dial>`,
      ),
    );
    harness.receiver.twiml('/wait', twiml('<Play>/ringing.wav</Play>'));
    harness.receiver.twiml('/hold', twiml('<Say>Please hold.</Say><Play>https://example.com/music.mp3</Play>'));

    const caller = (await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } })).body;
    expect(caller.status).toBe('in-progress');
    let conference = await conferenceView('support-1');
    expect(conference).toMatchObject({ status: 'init', friendlyName: 'support-1' });
    await expect.poll(async () => heard(await conferenceView('support-1'), caller.sid)).toEqual([`Play ${base}/ringing.wav`]);

    // The agent is dialled in through the Participants resource, by the conference's name.
    const created = await call<Participant>('POST', api(account, '/Conferences/support-1/Participants.json'), {
      auth: account,
      form: {
        From: number,
        To: 'client:alice',
        Label: 'agent',
        StatusCallback: `${base}/agent`,
        StatusCallbackEvent: 'answered completed',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ conference_sid: conference.sid, label: 'agent', status: 'queued', hold: false });
    const agentSid = created.body.call_sid;
    expect((await callView(agentSid)).status).toBe('ringing');
    const listed = await call<{ conferences: { sid: string; status: string }[] }>(
      'GET',
      api(account, '/Conferences.json?FriendlyName=support-1&Status=init'),
      { auth: account },
    );
    expect(listed.body.conferences.map((c) => c.sid)).toEqual([conference.sid]);

    expect((await control(agentSid, 'answer')).status).toBe(200);
    conference = await conferenceView(conference.sid);
    expect(conference.status).toBe('in-progress');
    expect(conference.participants.map((p) => [p.label, p.status])).toEqual([
      ['customer', 'connected'],
      ['agent', 'connected'],
    ]);

    // The caller is held with the HoldUrl's TwiML, which is fetched signed.
    const held = await call<Participant>('POST', api(account, `/Conferences/${conference.sid}/Participants/customer.json`), {
      auth: account,
      form: { Hold: 'true', HoldUrl: `${base}/hold`, HoldMethod: 'GET' },
    });
    expect(held.body).toMatchObject({ call_sid: caller.sid, hold: true });
    await expect
      .poll(async () => heard(await conferenceView(conference.sid), caller.sid))
      // The agent's entry beeped (the Participants resource's Beep is true unless given).
      .toEqual([`Play ${base}/ringing.wav`, 'beep', 'Say Please hold.', 'Play https://example.com/music.mp3']);
    const holdRequest = harness.receiver.requests.find((r) => r.path === '/hold');
    expect(holdRequest?.method).toBe('GET');
    const onHold = await call<{ participants: Participant[] }>(
      'GET',
      api(account, `/Conferences/${conference.sid}/Participants.json?Hold=true`),
      { auth: account },
    );
    expect(onHold.body.participants.map((p) => p.call_sid)).toEqual([caller.sid]);

    // The caller hangs up on hold: with endConferenceOnExit the conference ends, and the agent's call with it.
    await control(caller.sid, 'hangup');
    await expect.poll(async () => (await conferenceView(conference.sid)).status).toBe('completed');
    conference = await conferenceView(conference.sid);
    expect(conference).toMatchObject({
      reasonConferenceEnded: 'participant-with-end-conference-on-exit-left',
      callSidEndingConference: caller.sid,
    });
    await expect.poll(async () => (await callView(agentSid)).status).toBe('completed');
    expect((await callView(caller.sid)).status).toBe('completed');
    expect(conferenceEvents(conference)).toEqual([
      'participant-join',
      'participant-join',
      'conference-start',
      'participant-hold',
      'participant-leave',
      'participant-leave',
      'conference-end',
    ]);
    for (const callback of conference.callbacks) {
      const request = harness.receiver.requests.find(
        (r) => r.path === '/conference' && r.params.SequenceNumber === callback.params.SequenceNumber,
      );
      expect(request && validateRequest(account.authToken, request.signature ?? '', request.url, request.params)).toBe(true);
    }
    expect(conference.callbacks[3]?.params).toMatchObject({ CallSid: caller.sid, Hold: 'true', ParticipantLabel: 'customer' });
    expect(conference.callbacks[6]?.params).toMatchObject({
      ReasonConferenceEnded: 'participant-with-end-conference-on-exit-left',
      CallSidEndingConference: caller.sid,
    });
    // The agent's own call callbacks: answered, then completed.
    await expect
      .poll(() => harness.receiver.requests.filter((r) => r.path === '/agent').map((r) => r.params.CallStatus))
      .toEqual(['in-progress', 'completed']);
    // Gone participants are no longer resources.
    const gone = await call('GET', api(account, `/Conferences/${conference.sid}/Participants/${caller.sid}.json`), {
      auth: account,
    });
    expect(gone.status).toBe(404);
  });

  it("removes a participant, whose call goes on to the Dial's action; an agent nobody answers ends no-answer", async () => {
    const account = await newAccount();
    const number = await answerCallsWith(
      account,
      twiml('<Dial action="/after"><Conference>room</Conference></Dial><Say>never</Say>'),
    );
    harness.receiver.twiml('/after', twiml('<Say>Back outside.</Say><Pause length="60"/>'));
    const caller = (await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } })).body;
    const conference = await conferenceView('room');
    expect(conference.status).toBe('in-progress');

    const created = await call<Participant>('POST', api(account, `/Conferences/${conference.sid}/Participants.json`), {
      auth: account,
      form: { From: number, To: '+14155550142', Timeout: '5' },
    });
    expect(created.status).toBe(201);
    await control(created.body.call_sid, 'advance');
    await expect.poll(async () => (await callView(created.body.call_sid)).status).toBe('no-answer');
    const listed = await call<{ participants: Participant[] }>(
      'GET',
      api(account, `/Conferences/${conference.sid}/Participants.json`),
      {
        auth: account,
      },
    );
    expect(listed.body.participants.map((p) => p.call_sid)).toEqual([caller.sid]);

    const removed = await call('DELETE', api(account, `/Conferences/${conference.sid}/Participants/${caller.sid}.json`), {
      auth: account,
    });
    expect(removed.status).toBe(204);
    await expect.poll(async () => (await callView(caller.sid)).said).toEqual(['Back outside.']);
    expect((await callView(caller.sid)).status).toBe('in-progress');
    const after = harness.receiver.requests.find((r) => r.path === '/after');
    expect(after?.params).toMatchObject({ CallSid: caller.sid, DialCallStatus: 'completed' });
    expect(await conferenceView(conference.sid)).toMatchObject({
      status: 'completed',
      reasonConferenceEnded: 'last-participant-kicked',
    });
    await control(caller.sid, 'hangup');
  });

  it('refuses what Twilio refuses, and ends a conference through the API', async () => {
    const account = await newAccount();
    const number = await answerCallsWith(account, twiml('<Dial><Conference>room</Conference></Dial><Say>Left.</Say>'));
    const caller = (await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } })).body;
    const { sid } = await conferenceView('room');
    const participants = api(account, `/Conferences/${sid}/Participants.json`);
    const refusal = async (form: Record<string, string>) => (await call('POST', participants, { auth: account, form })).body;
    expect(await refusal({ From: number })).toMatchObject({ status: 400, code: 21604 });
    expect(await refusal({ To: 'client:alice' })).toMatchObject({ status: 400, code: 21603 });
    expect(await refusal({ From: number, To: '555' })).toMatchObject({ status: 400, code: 21211 });
    expect(await refusal({ From: 'client:bob', To: PHONE })).toMatchObject({ status: 400, code: 21212 });
    const one = api(account, `/Conferences/${sid}/Participants/${caller.sid}.json`);
    expect((await call('PUT', one, { auth: account })).status).toBe(405);
    expect((await call('POST', one, { auth: account, form: { Hold: 'maybe' } })).body).toMatchObject({
      status: 400,
      code: 20001,
    });
    expect(
      (
        await call('POST', api(account, `/Conferences/CF${'0'.repeat(32)}/Participants.json`), {
          auth: account,
          form: { From: number, To: 'client:a' },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', api(account, `/Conferences/${sid}/Participants/${sid}.json`), { auth: account })).status).toBe(404);

    const ended = await call('POST', api(account, `/Conferences/${sid}.json`), { auth: account, form: { Status: 'completed' } });
    expect(ended.status).toBe(200);
    await expect.poll(async () => (await callView(caller.sid)).said).toEqual(['Left.']);
    expect(await conferenceView(sid)).toMatchObject({ status: 'completed', reasonConferenceEnded: 'conference-ended-via-api' });
  });

  it("moves both parties of a bridged call into a conference: the leg redirected, the caller through the Dial's action", async () => {
    const account = await newAccount();
    const number = await answerCallsWith(account, twiml('<Dial action="/dialled"><Client>alice</Client></Dial>'));
    const room = twiml('<Dial><Conference endConferenceOnExit="true" beep="false">moved</Conference></Dial>');
    harness.receiver.twiml('/dialled', room);
    const caller = (await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } })).body;
    const leg = caller.legs[0]?.sid ?? '';
    await control(caller.sid, 'answer', { by: 'client:alice' });

    const redirected = await call('POST', api(account, `/Calls/${leg}.json`), { auth: account, form: { Twiml: room } });
    expect(redirected.status).toBe(200);
    await expect
      .poll(async () => (await conferenceView('moved'))?.participants?.map((p) => [p.callSid, p.status]))
      .toEqual([
        [leg, 'connected'],
        [caller.sid, 'connected'],
      ]);
    const dialled = harness.receiver.requests.find((r) => r.path === '/dialled');
    expect(dialled?.params).toMatchObject({ DialCallStatus: 'completed', DialCallSid: leg });
    expect((await callView(leg)).status).toBe('in-progress');
    expect((await callView(caller.sid)).status).toBe('in-progress');

    // The agent hangs up: the conference ends, and the caller's call with it.
    await control(leg, 'hangup');
    await expect.poll(async () => (await callView(caller.sid)).status).toBe('completed');
    expect((await callView(leg)).status).toBe('completed');
  });

  it("is driven by the official twilio library's Participant resource: create, hold, remove", async () => {
    const account = await newAccount();
    const number = await answerCallsWith(account, twiml('<Dial><Conference>library</Conference></Dial>'));
    const caller = (await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } })).body;
    const emulatorUrl = harness.emulator.url;
    /** The library's own transport, pointed at the emulator instead of api.twilio.com. */
    class EmulatorTransport extends RequestClient {
      override request<T>(opts: RequestClient.RequestOptions<T>) {
        return super.request({ ...opts, uri: opts.uri.replace('https://api.twilio.com', emulatorUrl) });
      }
    }
    const client = new Twilio(account.accountSid, account.authToken, { httpClient: new EmulatorTransport() });
    const [conference] = await client.conferences.list({ friendlyName: 'library', status: 'in-progress' });
    expect(conference?.sid).toMatch(/^CF/);
    const participant = await client.conferences(conference?.sid ?? '').participants.create({
      from: number,
      to: 'client:alice',
      label: 'agent',
      startConferenceOnEnter: true,
      endConferenceOnExit: false,
    });
    expect(participant).toMatchObject({ label: 'agent', status: 'queued', conferenceSid: conference?.sid });
    await control(participant.callSid, 'answer');

    const customer = client.conferences(conference?.sid ?? '').participants(caller.sid);
    const held = await customer.update({ hold: true });
    expect(held).toMatchObject({ hold: true, callSid: caller.sid, status: 'connected' });
    expect((await customer.update({ hold: false, muted: true })).muted).toBe(true);
    expect(
      await client
        .conferences(conference?.sid ?? '')
        .participants(participant.callSid)
        .remove(),
    ).toBe(true);
    await expect.poll(async () => (await callView(participant.callSid)).status).toBe('completed');
    expect((await client.conferences(conference?.sid ?? '').participants.list()).map((p) => p.callSid)).toEqual([caller.sid]);
    await control(caller.sid, 'hangup');
    await expect.poll(async () => (await client.conferences(conference?.sid ?? '').fetch()).status).toBe('completed');
  });
});
