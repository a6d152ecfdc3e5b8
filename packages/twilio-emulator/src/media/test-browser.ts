import { expect } from 'vitest';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import { muLawHasSound, muLawTone } from './g711';

/** For the media tests: a browser played by a werift peer in Node, and waits that count its packets. */

/** A browser's microphone: a 1 kHz tone, told apart from the emulator's. */
export const VOICE = muLawTone(1000).subarray(0, 160);
/** What a browser sends for a disabled track (the Voice SDK's mute): μ-law digital silence. */
export const SILENCE = Buffer.alloc(160, 0xff);
/** Opus frames as a browser sends them: speech is tens of bytes, a disabled track's frames are 3. */
export const OPUS_VOICE = Buffer.alloc(60, 0x5a);
export const OPUS_SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);
/** The emulator's tone, as a browser receives it: sound that is not the other browser's microphone. */
export const isTone = (payload: Buffer = SILENCE) => muLawHasSound(payload) && !payload.equals(VOICE);

/** How long a condition may take: a connection is up in about half a second, far more on a loaded machine. */
export const WAIT = { timeout: 10_000 };

const browsers = new Set<Browser>();

/** Closes every browser a test file opened. */
export async function closeBrowsers() {
  await Promise.all([...browsers].map((b) => b.stop()));
  browsers.clear();
}

/** A browser played by a second werift peer: sends 20 ms PCMU packets, its microphone on or muted. */
export class Browser {
  readonly pc: RTCPeerConnection;
  readonly track = new MediaStreamTrack({ kind: 'audio' });
  muted = false;
  received: Buffer[] = [];
  sentPackets = 0;
  private readonly timer: NodeJS.Timeout;

  /** Opus first, as browsers offer; Opus alone for a browser without PCMU. */
  constructor(private readonly opusOnly = false) {
    const opus = new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2, payloadType: 111 });
    const pcmu = new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, payloadType: 0 });
    this.pc = new RTCPeerConnection({ codecs: { audio: opusOnly ? [opus] : [opus, pcmu] }, iceUseIpv6: false });
    this.pc.onTrack.subscribe((remote) => remote.onReceiveRtp.subscribe((rtp) => this.received.push(rtp.payload)));
    this.timer = setInterval(() => {
      if (this.pc.connectionState !== 'connected') return;
      this.sentPackets++;
      const header = new RtpHeader({ sequenceNumber: this.sentPackets, timestamp: this.sentPackets * 160 });
      const payload = this.opusOnly ? (this.muted ? OPUS_SILENCE : OPUS_VOICE) : this.muted ? SILENCE : VOICE;
      this.track.writeRtp(new RtpPacket(header, payload));
    }, 20);
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'closed' || state === 'failed') clearInterval(this.timer);
    });
    browsers.add(this);
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

  async stop() {
    clearInterval(this.timer);
    await this.pc.close();
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

/** Waits for a number of packets after now, so a count read then covers only what was sent since. */
export async function afterPackets(count: () => number, packets: number) {
  const from = count();
  await expect.poll(count, WAIT).toBeGreaterThanOrEqual(from + packets);
}

/**
 * Nothing more reaches the browser nor the emulator: the browser's own packets are the clock (a few
 * for what was on its way, then ten more), not a wall-clock wait.
 */
export async function expectSilent(browser: Browser, receivedByEmulator: () => number) {
  await afterPackets(() => browser.sentPackets, 3);
  const [heard, got] = [browser.received.length, receivedByEmulator()];
  await afterPackets(() => browser.sentPackets, 10);
  expect([browser.received.length, receivedByEmulator()]).toEqual([heard, got]);
}
