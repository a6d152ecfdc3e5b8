import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { describe, expect, it } from 'vitest';
import { useTwilioEmulator } from '../test-harness';
import type { ReceivedRequest } from '../test-receiver';
import type { CallView } from './representation';

const PHONE = '+14155550199';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { voice: boolean; sms: boolean } }[];
}

interface Recording {
  sid: string;
  call_sid: string;
  status: string;
  duration: string | null;
  media_url: string;
  play_beep: boolean;
  callbacks: { event: string; status: number | null }[];
}

type RecordedCall = CallView & { recordings: Recording[] };

const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The emulator's injectable clock, moved by hand: recordings are measured by it. */
const clock = { at: Date.parse('2026-11-25T10:00:00Z'), now: () => clock.at };

describe('Twilio emulator <Record>', () => {
  const harness = useTwilioEmulator(() => ({ clock }));
  const { call } = harness;

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;
  async function answerCallsWith(account: Account, document: string) {
    harness.receiver.twiml('/voice', document);
    const number = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
    const res = await call('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    expect(res.status).toBe(200);
    return number?.phone_number ?? '';
  }
  const callFromPhone = (to: string) => call<RecordedCall>('POST', '/_emulator/calls', { json: { from: PHONE, to } });
  const control = (sid: string, action: string, json: unknown = {}) =>
    call<RecordedCall>('POST', `/_emulator/calls/${sid}/${action}`, { json });
  const requestsTo = (path: string) => harness.receiver.requests.filter((r) => r.path === path);
  const signedWith = (authToken: string, request: ReceivedRequest | undefined) =>
    Boolean(request && validateRequest(authToken, request.signature ?? '', request.url, request.params));
  async function download(url: string, authorization?: string) {
    const res = await fetch(url, { headers: authorization ? { authorization } : {} });
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('records until the caller hangs up (by the clock), posts the action and the signed status callbacks, and serves the WAV', async () => {
    const account = await newAccount();
    const to = await answerCallsWith(
      account,
      twiml(
        '<Say>Please leave a message.</Say><Record maxLength="120" playBeep="true" action="/recorded" ' +
          'recordingStatusCallback="/recording?voicemail=1" recordingStatusCallbackEvent="in-progress completed"/>',
      ),
    );
    harness.receiver.twiml('/recorded', twiml('<Say>never heard</Say>'));
    const started = await callFromPhone(to);
    expect(started.status).toBe(201);
    expect(started.body.status).toBe('in-progress');
    const sid = started.body.sid;
    expect(started.body.recordings).toMatchObject([{ status: 'in-progress', duration: null, call_sid: sid }]);

    clock.at += 12_400;
    const ended = await control(sid, 'hangup');
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('completed');
    expect(ended.body.said).toEqual(['Please leave a message.']);
    const [recording] = ended.body.recordings;
    expect(recording).toMatchObject({ status: 'completed', duration: '12', play_beep: true });
    expect(recording?.sid).toMatch(/^RE[0-9a-f]{32}$/);
    const recordingUrl = `${harness.emulator.url}/2010-04-01/Accounts/${account.accountSid}/Recordings/${recording?.sid}`;
    expect(recording?.media_url).toBe(recordingUrl);

    const [action] = requestsTo('/recorded');
    expect(signedWith(account.authToken, action)).toBe(true);
    expect(action?.params).toMatchObject({
      CallSid: sid,
      AccountSid: account.accountSid,
      RecordingUrl: recordingUrl,
      RecordingDuration: '12',
      RecordingSid: recording?.sid,
      Digits: 'hangup',
    });
    const callbacks = requestsTo('/recording');
    expect(callbacks.map((c) => c.params.RecordingStatus)).toEqual(['in-progress', 'completed']);
    expect(callbacks.every((c) => signedWith(account.authToken, c))).toBe(true);
    expect(callbacks[1]?.url).toBe(`${harness.receiver.base}/recording?voicemail=1`);
    expect(callbacks[1]?.params).toEqual({
      AccountSid: account.accountSid,
      CallSid: sid,
      RecordingSid: recording?.sid,
      RecordingUrl: recordingUrl,
      RecordingStatus: 'completed',
      RecordingDuration: '12',
      RecordingChannels: '1',
      RecordingStartTime: 'Wed, 25 Nov 2026 10:00:00 +0000',
      RecordingSource: 'RecordVerb',
    });
    expect(recording?.callbacks.map((c) => [c.event, c.status])).toEqual([
      ['in-progress', 200],
      ['completed', 200],
    ]);

    const auth = basic(account.accountSid, account.authToken);
    for (const suffix of ['', '.wav', '.mp3']) {
      const wav = await download(`${recordingUrl}${suffix}`, auth);
      expect([wav.status, wav.type]).toEqual([200, 'audio/wav']);
      expect(wav.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(wav.bytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
      expect([
        wav.bytes.readUInt16LE(20),
        wav.bytes.readUInt16LE(22),
        wav.bytes.readUInt32LE(24),
        wav.bytes.readUInt16LE(34),
      ]).toEqual([1, 1, 8000, 16]);
      expect(wav.bytes.readUInt32LE(40)).toBe(12 * 8000 * 2);
      expect(wav.bytes.length).toBe(44 + 12 * 8000 * 2);
    }
    expect((await download(recordingUrl)).status).toBe(401);
    const other = await newAccount();
    expect((await download(recordingUrl, basic(other.accountSid, other.authToken))).status).toBe(401);
    const elsewhere = recordingUrl.replace(account.accountSid, other.accountSid);
    expect((await download(elsewhere, basic(other.accountSid, other.authToken))).status).toBe(404);
    expect((await download(`${elsewhere}.json`, basic(other.accountSid, other.authToken))).status).toBe(404);
    const key = await harness.apiKey(account);
    expect((await download(`${recordingUrl}.wav`, basic(key.sid, key.secret))).status).toBe(200);

    const fetched = await call<Recording>('GET', `/2010-04-01/Accounts/${account.accountSid}/Recordings/${recording?.sid}.json`, {
      auth: account,
    });
    expect(fetched.body).toMatchObject({ sid: recording?.sid, call_sid: sid, duration: '12', status: 'completed' });
    const list = await call<{ recordings: Recording[] }>(
      'GET',
      `/2010-04-01/Accounts/${account.accountSid}/Recordings.json?CallSid=${sid}`,
      { auth: account },
    );
    expect(list.body.recordings.map((r) => r.sid)).toEqual([recording?.sid]);
    const view = await call<{ recordings: Recording[] }>('GET', `/_emulator/accounts/${account.accountSid}`);
    expect(view.body.recordings.map((r) => r.sid)).toEqual([recording?.sid]);
  });

  it('ends at maxLength when the caller speaks longer, and carries out what the action answers', async () => {
    const account = await newAccount();
    const to = await answerCallsWith(account, twiml('<Record maxLength="30" action="/recorded" playBeep="false"/>'));
    harness.receiver.twiml('/recorded', twiml('<Say>Thank you, goodbye.</Say><Hangup/>'));
    const sid = (await callFromPhone(to)).body.sid;
    expect((await control(sid, 'speak', { seconds: 10 })).body.recordings).toMatchObject([{ status: 'in-progress' }]);
    const ended = await control(sid, 'speak', { seconds: 25 });
    expect(ended.body.status).toBe('completed');
    expect(ended.body.said).toEqual(['Thank you, goodbye.']);
    expect(ended.body.recordings).toMatchObject([{ status: 'completed', duration: '30', play_beep: false }]);
    const [action] = requestsTo('/recorded');
    expect(action?.params).toMatchObject({ RecordingDuration: '30', CallStatus: 'in-progress' });
    expect(action?.params.Digits).toBeUndefined();
    // No recordingStatusCallback: no callbacks.
    expect(ended.body.recordings?.[0]).toMatchObject({ callbacks: [] });
    expect((await control(sid, 'speak', { seconds: 1 })).status).toBe(409);
    const page = await (await fetch(`${harness.emulator.url}/`)).text();
    expect(page).toContain('Latest recordings');
    expect(page).toContain(
      `<td><code>${ended.body.recordings?.[0]?.sid}</code></td><td><code>${sid}</code></td><td>completed</td><td>30 s</td>`,
    );
  });

  it('ends on a finishOnKey and posts it as Digits; advance ends it at maxLength; speak is checked', async () => {
    const account = await newAccount();
    const to = await answerCallsWith(account, twiml('<Record finishOnKey="#" maxLength="60" action="/recorded"/>'));
    harness.receiver.twiml('/recorded', twiml('<Hangup/>'));
    const sid = (await callFromPhone(to)).body.sid;
    expect((await control(sid, 'speak', { seconds: 0 })).status).toBe(400);
    expect((await control(sid, 'speak', { seconds: 'ten' })).status).toBe(400);
    await control(sid, 'speak', { seconds: 5 });
    expect((await control(sid, 'digits', { digits: '1' })).body.recordings).toMatchObject([{ status: 'in-progress' }]);
    const ended = await control(sid, 'digits', { digits: '#' });
    expect(ended.body.status).toBe('completed');
    expect(ended.body.recordings).toMatchObject([{ status: 'completed', duration: '5' }]);
    expect(requestsTo('/recorded')[0]?.params).toMatchObject({ Digits: '#', RecordingDuration: '5' });

    harness.receiver.reset();
    const again = await answerCallsWith(account, twiml('<Record maxLength="45" action="/recorded"/>'));
    const second = (await callFromPhone(again)).body.sid;
    const advanced = await control(second, 'advance');
    expect(advanced.status).toBe(200);
    expect(advanced.body.recordings).toMatchObject([{ status: 'completed', duration: '45' }]);
  });

  it('requests the current document without an action, and a recording of no length is absent (its event when asked)', async () => {
    const account = await newAccount();
    const to = await answerCallsWith(
      account,
      twiml(`<Record recordingStatusCallback="${harness.receiver.base}/recording" recordingStatusCallbackEvent="absent"/>`),
    );
    const sid = (await callFromPhone(to)).body.sid;
    const ended = await control(sid, 'hangup');
    expect(ended.body.recordings).toMatchObject([{ status: 'absent', duration: '0' }]);
    // The action defaults to the document's own URL: requested again, its TwiML not carried out (the caller left).
    const voice = requestsTo('/voice');
    expect(voice).toHaveLength(2);
    expect(voice[1]?.params).toMatchObject({ RecordingDuration: '0', Digits: 'hangup', CallStatus: 'completed' });
    expect(requestsTo('/recording').map((r) => r.params.RecordingStatus)).toEqual(['absent']);
    const audio = await download(ended.body.recordings?.[0]?.media_url ?? '', basic(account.accountSid, account.authToken));
    expect(audio.status).toBe(404);
  });
});
