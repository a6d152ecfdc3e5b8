import RequestClient from 'twilio/lib/base/RequestClient';
import Twilio from 'twilio/lib/rest/Twilio';
import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { describe, expect, it } from 'vitest';
import { useTwilioEmulator } from '../test-harness';

const PHONE = '+14155550199';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { voice: boolean; sms: boolean } }[];
}

const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

/** The emulator's injectable clock, moved by hand: recordings are measured by it. */
const clock = { at: Date.parse('2026-11-25T10:00:00Z'), now: () => clock.at };

/** The official library's own HTTP client, sent to the emulator instead of api.twilio.com. */
class EmulatorRequestClient extends RequestClient {
  constructor(private readonly base: string) {
    super();
  }
  override request<T>(opts: RequestClient.RequestOptions<T>) {
    return super.request({ ...opts, uri: opts.uri.replace('https://api.twilio.com', this.base) });
  }
}

/** The samples of one channel of a 16-bit PCM WAV, and its channel count. */
function channelsOf(wav: Buffer) {
  const count = wav.readUInt16LE(22);
  const frames = (wav.length - 44) / (2 * count);
  return Array.from({ length: count }, (_, c) =>
    Array.from({ length: frames }, (__, i) => wav.readInt16LE(44 + (i * count + c) * 2)),
  );
}
const loud = (samples: number[]) => samples.some((s) => Math.abs(s) > 1000);

describe('Twilio emulator: the Call Recordings API', () => {
  const harness = useTwilioEmulator(() => ({ clock }));
  const { call } = harness;

  async function answeredCall() {
    const account = (await call<Account>('POST', '/_emulator/accounts')).body;
    harness.receiver.twiml('/voice', twiml('<Pause length="600"/>'));
    const number = account.numbers.find((n) => n.capabilities.voice && n.capabilities.sms);
    await call('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    const placed = await call<{ sid: string }>('POST', '/_emulator/calls', { json: { from: PHONE, to: number?.phone_number } });
    const client = new Twilio(account.accountSid, account.authToken, {
      httpClient: new EmulatorRequestClient(harness.emulator.url),
    });
    return { account, client, callSid: placed.body.sid };
  }

  it('records a call through the official library: dual channels, a pause kept as silence, stopped, with signed callbacks and the WAV', async () => {
    const { account, client, callSid } = await answeredCall();
    const created = await client.calls(callSid).recordings.create({
      recordingChannels: 'dual',
      recordingStatusCallback: `${harness.receiver.base}/recording`,
      recordingStatusCallbackEvent: ['in-progress', 'completed'],
    });
    expect(created).toMatchObject({ callSid, status: 'in-progress', channels: 2, source: 'StartCallRecordingAPI' });
    clock.at += 4_000;
    expect((await client.calls(callSid).recordings(created.sid).update({ status: 'paused' })).status).toBe('paused');
    clock.at += 3_000;
    expect((await client.calls(callSid).recordings('Twilio.CURRENT').update({ status: 'in-progress' })).status).toBe(
      'in-progress',
    );
    clock.at += 2_000;
    expect((await client.calls(callSid).recordings(created.sid).update({ status: 'stopped' })).status).toBe('stopped');

    const fetched = await client.calls(callSid).recordings(created.sid).fetch();
    expect(fetched).toMatchObject({ status: 'completed', duration: '9' });
    expect((await client.calls(callSid).recordings.list()).map((r) => r.sid)).toEqual([created.sid]);

    await expect.poll(() => harness.receiver.requests.filter((r) => r.path === '/recording').length).toBe(2);
    const callbacks = harness.receiver.requests.filter((r) => r.path === '/recording');
    expect(callbacks.map((r) => [r.params.RecordingStatus, r.params.RecordingDuration, r.params.RecordingSource])).toEqual([
      ['in-progress', '-1', 'StartCallRecordingAPI'],
      ['completed', '9', 'StartCallRecordingAPI'],
    ]);
    for (const r of callbacks) expect(validateRequest(account.authToken, r.signature ?? '', r.url, r.params)).toBe(true);

    const media = await fetch(`${harness.emulator.url}/2010-04-01/Accounts/${account.accountSid}/Recordings/${created.sid}.wav`, {
      headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}` },
    });
    const wav = Buffer.from(await media.arrayBuffer());
    const [caller = [], other = []] = channelsOf(wav);
    // 9 s at 8 kHz: 4 s of both parties, 3 s of silence (the pause), 2 s of both again.
    expect(caller).toHaveLength(9 * 8000);
    expect([loud(caller.slice(0, 32_000)), loud(caller.slice(32_000, 56_000)), loud(caller.slice(56_000))]).toEqual([
      true,
      false,
      true,
    ]);
    expect(loud(other.slice(0, 32_000))).toBe(true);
  });

  it('leaves a skipped pause out, ends the recording with its call, and refuses to record a call that is over', async () => {
    const { client, callSid } = await answeredCall();
    const created = await client.calls(callSid).recordings.create({});
    clock.at += 5_000;
    await client.calls(callSid).recordings(created.sid).update({ status: 'paused', pauseBehavior: 'skip' });
    clock.at += 10_000;
    await call('POST', `/_emulator/calls/${callSid}/hangup`, { json: {} });
    const ended = await client.calls(callSid).recordings(created.sid).fetch();
    expect(ended).toMatchObject({ status: 'completed', duration: '5', channels: 1 });
    await expect(client.calls(callSid).recordings.create({})).rejects.toMatchObject({ status: 400, code: 21220 });
    await expect(client.calls(callSid).recordings(created.sid).update({ status: 'paused' })).rejects.toMatchObject({
      status: 400,
    });
    await client.calls(callSid).recordings(created.sid).remove();
    await expect(client.calls(callSid).recordings(created.sid).fetch()).rejects.toMatchObject({ status: 404 });
  });
});
