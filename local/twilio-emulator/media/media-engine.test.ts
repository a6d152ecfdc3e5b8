import { afterAll, describe, expect, it } from 'vitest';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import { createCallMedia } from './call-media';
import { muLawHasSound, muLawTone } from './g711';
import { createMediaEngine } from './media-engine';

/** A browser's microphone: a 1 kHz tone, told apart from the emulator's. */
const VOICE = muLawTone(1000).subarray(0, 160);
/** What a browser sends for a disabled track (the Voice SDK's mute): μ-law digital silence. */
const SILENCE = Buffer.alloc(160, 0xff);
/** The emulator's tone, as a browser receives it: sound that is not the other browser's microphone. */
const isTone = (payload: Buffer = SILENCE) => muLawHasSound(payload) && !payload.equals(VOICE);

const engine = createMediaEngine();
const browsers: Browser[] = [];
afterAll(async () => {
  await Promise.all(browsers.map((b) => b.pc.close()));
  await engine.close();
});

/** A browser played by a second werift peer: sends 20 ms PCMU packets, its microphone on or muted. */
class Browser {
  readonly pc: RTCPeerConnection;
  readonly track = new MediaStreamTrack({ kind: 'audio' });
  muted = false;
  received: Buffer[] = [];
  sentPackets = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(codecs = [new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, payloadType: 0 })]) {
    this.pc = new RTCPeerConnection({ codecs: { audio: codecs }, iceUseIpv6: false });
    this.pc.onTrack.subscribe((remote) => remote.onReceiveRtp.subscribe((rtp) => this.received.push(rtp.payload)));
    this.timer = setInterval(() => {
      if (this.pc.connectionState !== 'connected') return;
      this.sentPackets++;
      const header = new RtpHeader({ sequenceNumber: this.sentPackets, timestamp: this.sentPackets * 160 });
      this.track.writeRtp(new RtpPacket(header, this.muted ? SILENCE : VOICE));
    }, 20);
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'closed' || state === 'failed') clearInterval(this.timer);
    });
    browsers.push(this);
  }

  async offer() {
    this.pc.addTransceiver(this.track, { direction: 'sendrecv' });
    await this.pc.setLocalDescription(await this.pc.createOffer());
    await this.gathered();
    return this.pc.localDescription?.sdp ?? '';
  }

  async answer(offerSdp: string) {
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    this.pc.addTrack(this.track);
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    await this.gathered();
    return this.pc.localDescription?.sdp ?? '';
  }

  last() {
    return this.received.at(-1);
  }

  private async gathered() {
    while (this.pc.iceGatheringState !== 'complete') {
      await new Promise((resolve) => this.pc.iceGatheringStateChange.once(resolve));
    }
  }
}

/** A browser's call answered by the engine (the Voice SDK's outbound call, or the phone page). */
async function answered(browser = new Browser()) {
  const { session, answerSdp } = await engine.answer(await browser.offer());
  await browser.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
  return { browser, session };
}

/** The engine invites a browser (a call to a Voice SDK client). */
async function invited() {
  const browser = new Browser();
  const { session, offerSdp, complete } = await engine.offer();
  await complete(await browser.answer(offerSdp));
  return { browser, session };
}

/** Waits for a number of packets after now, so a count read then covers only what was sent since. */
async function afterPackets(count: () => number, packets: number) {
  const from = count();
  await expect.poll(count, { timeout: 5000 }).toBeGreaterThanOrEqual(from + packets);
}

/**
 * Nothing more reaches the browser nor the emulator: the browser's own packets are the clock (a few
 * for what was on its way, then ten more), not a wall-clock wait.
 */
async function expectSilent(browser: Browser, receivedByEmulator: () => number) {
  await afterPackets(() => browser.sentPackets, 3);
  const [heard, got] = [browser.received.length, receivedByEmulator()];
  await afterPackets(() => browser.sentPackets, 10);
  expect([browser.received.length, receivedByEmulator()]).toEqual([heard, got]);
}

describe('media engine', () => {
  it('answers an offer with loopback candidates, plays the tone, and counts audio until the browser mutes', async () => {
    const browser = new Browser();
    const { session, answerSdp } = await engine.answer(await browser.offer());
    expect(answerSdp).toMatch(/^a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 \d+ typ host/m);
    expect(answerSdp).not.toMatch(/^a=candidate:(?!\S+ 1 udp \d+ 127\.0\.0\.1 )/m);
    expect(answerSdp).toMatch(/^a=fingerprint:sha-256 /m);
    await browser.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });

    await expect.poll(() => session.stats().received.audioPackets, { timeout: 5000 }).toBeGreaterThan(5);
    await expect.poll(() => browser.received.length, { timeout: 5000 }).toBeGreaterThan(5);
    expect(browser.last()).toSatisfy((payload: Buffer) => muLawHasSound(payload));
    const stats = session.stats();
    expect(stats.codec).toBe('PCMU');
    expect(stats.received.bytes).toBe(stats.received.packets * 160);
    expect(stats.sent.packets).toBeGreaterThan(5);

    browser.muted = true;
    // Packets on their way at the mute arrive first: the count is read once silence is arriving.
    await afterPackets(() => session.stats().received.packets, 5);
    const audioWhenMuted = session.stats().received.audioPackets;
    await afterPackets(() => session.stats().received.packets, 10);
    expect(session.stats().received.audioPackets).toBe(audioWhenMuted);

    browser.muted = false;
    await expect.poll(() => session.stats().received.audioPackets, { timeout: 5000 }).toBeGreaterThan(audioWhenMuted);
  });

  it('offers to a browser, bridges two calls both ways, plays the tone again when one side leaves, and ends', async () => {
    const callMedia = createCallMedia(engine);
    const [client, phone] = await Promise.all([invited(), answered()]);
    expect(client.session.stats().codec).toBe('PCMU');
    await expect.poll(() => isTone(client.browser.last()), { timeout: 5000 }).toBe(true);

    callMedia.attach('CA1', 'client', client.session);
    await expect.poll(() => isTone(phone.browser.last()), { timeout: 5000 }).toBe(true);
    callMedia.attach('CA1', 'phone', phone.session);
    // Each browser hears the other's microphone instead of the tone.
    await expect.poll(() => client.browser.last(), { timeout: 5000 }).toEqual(VOICE);
    await expect.poll(() => phone.browser.last(), { timeout: 5000 }).toEqual(VOICE);
    await afterPackets(() => client.browser.received.length, 5);
    expect(client.browser.received.slice(-5)).toEqual(Array(5).fill(VOICE));

    phone.browser.muted = true;
    await expect.poll(() => client.browser.last(), { timeout: 5000 }).toEqual(SILENCE);
    const stats = callMedia.stats('CA1');
    expect(stats.client?.received.audioPackets).toBeGreaterThan(0);
    expect(stats.phone?.received.packets).toBeGreaterThan(stats.phone?.received.audioPackets ?? 0);

    await phone.session.close();
    await expect.poll(() => isTone(client.browser.last()), { timeout: 5000 }).toBe(true);

    await callMedia.end('CA1');
    await expectSilent(client.browser, () => client.session.stats().received.packets);
    expect(callMedia.stats('CA1').client?.sent.packets).toBe(client.session.stats().sent.packets);

    // A side answered as the call ended is closed at once.
    const late = await answered();
    await expect.poll(() => late.browser.received.length, { timeout: 5000 }).toBeGreaterThan(0);
    callMedia.attach('CA1', 'phone', late.session);
    await expectSilent(late.browser, () => late.session.stats().received.packets);
  });
});
