import { afterAll, describe, expect, it } from 'vitest';
import type { CallMedia } from '../media/media-session';
import { Browser, closeBrowsers, expectSilent, isTone, VOICE, WAIT } from '../media/test-browser';
import { demo, useTwilioEmulator } from '../test-harness';

type MediaOfCall = ReturnType<CallMedia['stats']>;

const PHONE = '+14155550199';
const DEMO_MAIN = '+14155550101';

describe('phone simulator audio', () => {
  const harness = useTwilioEmulator();
  afterAll(closeBrowsers);

  const auth = { accountSid: demo.accountSid, authToken: demo.authToken };
  /** The product's TwiML rings a Voice SDK client, so the call stays up until it is hung up. */
  async function ringingAgentCall() {
    harness.receiver.twiml('/voice', '<Response><Dial><Client>agent</Client></Dial></Response>');
    const list = await harness.call<{ incoming_phone_numbers: { sid: string }[] }>(
      'GET',
      `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(DEMO_MAIN)}`,
      { auth },
    );
    await harness.call(
      'POST',
      `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers/${list.body.incoming_phone_numbers[0]?.sid}.json`,
      {
        auth,
        form: { VoiceUrl: `${harness.receiver.base}/voice` },
      },
    );
    const placed = await harness.call<{ sid: string }>('POST', '/_emulator/calls', { json: { from: PHONE, to: DEMO_MAIN } });
    expect(placed.status).toBe(201);
    return placed.body.sid;
  }

  it("joins the page to its call: it hears the tone, then the softphone's side once attached, until the call ends", async () => {
    const sid = await ringingAgentCall();
    const page = new Browser();
    const answer = await harness.call<{ sdp: string }>('POST', '/_emulator/phone/media', {
      json: { callSid: sid, sdp: await page.offer() },
    });
    expect(answer.status).toBe(200);
    await page.pc.setRemoteDescription({ type: 'answer', sdp: answer.body.sdp });
    await expect.poll(() => isTone(page.last()), WAIT).toBe(true);
    await expect.poll(() => harness.emulator.callMedia.stats(sid).phone?.received.audioPackets, WAIT).toBeGreaterThan(0);

    // What signalling does when the agent's browser answers: the 'client' side of the same call.
    const agent = new Browser();
    const client = await harness.emulator.mediaEngine.answer(await agent.offer());
    await agent.pc.setRemoteDescription({ type: 'answer', sdp: client.answerSdp });
    harness.emulator.callMedia.attach(sid, 'client', client.session);
    await expect.poll(() => page.last(), WAIT).toEqual(VOICE);
    await expect.poll(() => agent.last(), WAIT).toEqual(VOICE);
    // The call's story shows both sides' counts, growing.
    const story = async () => (await harness.call<{ media: MediaOfCall }>('GET', `/_emulator/calls/${sid}`)).body.media;
    const before = await story();
    expect(before).toMatchObject({ phone: { codec: 'PCMU' }, client: { codec: 'PCMU' } });
    await expect
      .poll(async () => (await story()).client?.received.audioPackets, WAIT)
      .toBeGreaterThan(before.client?.received.audioPackets ?? 0);
    await expect.poll(async () => (await story()).phone?.sent.packets, WAIT).toBeGreaterThan(before.phone?.sent.packets ?? 0);

    const hungUp = await harness.call('POST', `/_emulator/calls/${sid}/hangup`, { json: {} });
    expect(hungUp.status).toBe(200);
    await expectSilent(page, () => harness.emulator.callMedia.stats(sid).phone?.received.packets ?? 0);
    await expectSilent(agent, () => client.session.stats().received.packets);

    // The call has ended: no more audio for it.
    const late = await harness.call('POST', '/_emulator/phone/media', {
      json: { callSid: sid, sdp: await new Browser().offer() },
    });
    expect(late).toEqual({ status: 409, body: { error: `The call ${sid} has ended.` } });
  });

  it('refuses what is not an offer for a call of the emulator', async () => {
    const sid = await ringingAgentCall();
    expect(await harness.call('POST', '/_emulator/phone/media', { json: { callSid: sid } })).toEqual({
      status: 400,
      body: { error: 'Send {"callSid": "CA…", "sdp": "<the page\'s SDP offer>"}.' },
    });
    const unknown = await harness.call('POST', '/_emulator/phone/media', {
      json: { callSid: `CA${'0'.repeat(32)}`, sdp: 'v=0\r\n' },
    });
    expect(unknown).toEqual({ status: 404, body: { error: `No call CA${'0'.repeat(32)} in the emulator.` } });
    const garbled = await harness.call('POST', '/_emulator/phone/media', {
      json: { callSid: sid, sdp: 'v=0\r\nm=video 9 RTP/AVP 96\r\n' },
    });
    expect(garbled.status).toBe(400);
    expect(garbled.body.error).toMatch(/^The SDP offer could not be answered: /);
    expect((await harness.call('GET', '/_emulator/phone/media')).status).toBe(405);
  });
});
