import { randomInt, randomUUID } from 'node:crypto';
// werift 0.24.4, pinned: 0.25 needs Node 22 and this project runs (and tests) on Node 20.
import {
  type Extensions,
  MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RTCRtpHeaderExtensionParameters,
  type RTCRtpTransceiver,
  RTP_EXTENSION_URI,
  RtpHeader,
  RtpPacket,
} from 'werift';
import { decodeMuLaw, encodeMuLaw, muLawHasSound, muLawTone } from './g711';
import { HOLD_MUSIC } from './hold-music';
import type { MediaEngine, MediaSession, MediaStats } from './media-session';

/** 20 ms of audio per packet, as browsers send. */
const PACKET_MS = 20;
/** After a stall (a busy event loop), at most this many late packets are sent at once; the rest are skipped. */
const MAX_CATCH_UP = 5;
const TONE = muLawTone(440);
const PCMU_SAMPLES = (8000 * PACKET_MS) / 1000;
const OPUS_SAMPLES = (48_000 * PACKET_MS) / 1000;
/** An Opus 20 ms CELT silence frame: Node has no Opus encoder, so an Opus leg hears silence instead of the tone. */
const OPUS_SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);
/** The loudest an RTP audio level (-dBov) can say is silence; what a browser sends for a disabled track. */
const SILENT_LEVEL = 127;
/** Opus payloads this small are silence or comfort noise (a disabled track's frames are 3 bytes). */
const OPUS_SILENT_BYTES = 10;
/** μ-law digital silence: what a mix with nobody to hear sends. */
const PCMU_SILENCE = Buffer.alloc(160, 0xff);
/** A member's last packet counts in the mix this long: after that the member is silent (gone, or stalled). */
const MIX_FRESH_MS = 100;

type Codec = 'PCMU' | 'opus';

function peerConfig() {
  return {
    // PCMU first (docs/product.md §9: PCMU then Opus), which is also the codec the tone is generated in.
    codecs: {
      audio: [
        new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, channels: 1, payloadType: 0 }),
        new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2, payloadType: 111 }),
      ],
    },
    // The audio level tells an Opus packet of sound from one of silence (a muted browser's).
    headerExtensions: { audio: [new RTCRtpHeaderExtensionParameters({ uri: RTP_EXTENSION_URI.audioLevelIndication })] },
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
  };
}

/** The browser and the emulator run on one machine: only loopback candidates are offered. */
function loopbackOnly(sdp: string) {
  return sdp
    .split('\r\n')
    .filter((line) => !line.startsWith('a=candidate:') || line.split(' ')[4] === '127.0.0.1')
    .join('\r\n');
}

/**
 * werift negotiates in the order of the browser's list, which puts Opus first: PCMU, when the browser
 * has it, is moved to the front (of the answer werift writes, and of what it sends with), so both
 * ends send PCMU.
 */
function preferPcmu(transceiver: RTCRtpTransceiver | undefined) {
  const pcmu = transceiver?.codecs.find((c) => c.name.toUpperCase() === 'PCMU');
  if (!transceiver || !pcmu) return;
  transceiver.codecs = [pcmu, ...transceiver.codecs.filter((c) => c !== pcmu)];
  transceiver.sender.codec = pcmu;
  if (transceiver.sender.track) transceiver.sender.track.codec = pcmu;
}

/** No trickle ICE (the Voice SDK sends one SDP): the description is handed out once gathering is complete. */
async function gathered(pc: RTCPeerConnection) {
  while (pc.iceGatheringState !== 'complete') {
    await new Promise((resolve) => pc.iceGatheringStateChange.once(resolve));
  }
  const sdp = pc.localDescription?.sdp;
  if (!sdp) throw new Error('No local description after ICE gathering.');
  return loopbackOnly(sdp);
}

class PeerSession implements MediaSession {
  readonly id = randomUUID();
  readonly track = new MediaStreamTrack({ kind: 'audio' });
  /** The session this one is bridged to: what it receives goes there. */
  peer?: PeerSession;
  closed = false;
  private readonly received = { packets: 0, bytes: 0, audioPackets: 0 };
  /** The codec of the last packet received: what it can forward to its bridged party without transcoding. */
  private receivedCodec: Codec | null = null;
  private readonly sent = { packets: 0, bytes: 0 };
  private sequenceNumber = randomInt(0xffff);
  private timestamp = randomInt(0xffffffff);
  private tonePosition = 0;
  private nextToneAt = 0;
  /** What is added to a forwarded packet's timestamp to continue this session's timeline; unset before the first one. */
  private forwardOffset?: number;
  /** The first packet of a new source (tone or forwarded audio) starts a talkspurt. */
  private marker = true;
  /** The conference this session is mixed in (every member shares the set), instead of a bridge or the tone. */
  group?: Set<PeerSession>;
  /** In a group: hears the hold music instead of the mix (held, or waiting for the conference to start). */
  music = false;
  /** In a group: the others hear this session (not muted, not held). */
  heard = true;
  private musicPosition = 0;
  /** The last packet received and when: what this session adds to its group's mix. */
  private last?: { payload: Buffer; codec: Codec; at: number };

  constructor(
    readonly pc: RTCPeerConnection,
    private readonly onClose: (session: PeerSession) => void,
  ) {
    pc.onTrack.subscribe((remote) => {
      remote.onReceiveRtp.subscribe((rtp, extensions) => this.receive(rtp, extensions));
    });
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'closed') void this.close();
    });
  }

  get codec(): Codec | null {
    const name = this.pc.getTransceivers()[0]?.sender.codec?.name.toLowerCase();
    return name === 'pcmu' ? 'PCMU' : name === 'opus' ? 'opus' : null;
  }

  get connected() {
    return !this.closed && this.pc.connectionState === 'connected';
  }

  /**
   * The bridged party's audio replaces the tone once it arrives in this session's codec (the emulator
   * does not transcode: with different codecs each side goes on hearing the tone).
   */
  get forwarding() {
    return this.codec !== null && this.peer?.receivedCodec === this.codec;
  }

  stats(): MediaStats {
    return { codec: this.codec, received: { ...this.received }, sent: { ...this.sent } };
  }

  private receive(rtp: RtpPacket, extensions?: Extensions) {
    this.received.packets++;
    this.received.bytes += rtp.payload.length;
    if (this.hasSound(rtp, extensions)) this.received.audioPackets++;
    // Only the two negotiated codecs reach here: PCMU has the static payload type 0.
    this.receivedCodec = rtp.header.payloadType === 0 ? 'PCMU' : 'opus';
    this.last = { payload: rtp.payload, codec: this.receivedCodec, at: performance.now() };
    if (this.peer?.forwarding) this.peer.forward(rtp);
  }

  private hasSound(rtp: RtpPacket, extensions?: Extensions) {
    if (rtp.header.payloadType === 0) return muLawHasSound(rtp.payload);
    const level = extensions?.[RTP_EXTENSION_URI.audioLevelIndication] as { level: number } | undefined;
    if (level) return level.level < SILENT_LEVEL;
    return rtp.payload.length > OPUS_SILENT_BYTES;
  }

  /** Plays the bridged party's audio on this session's own sequence and timeline. */
  forward(rtp: RtpPacket) {
    if (!this.connected) return;
    if (this.forwardOffset === undefined) {
      this.forwardOffset = (this.timestamp + this.samplesPerPacket() - rtp.header.timestamp) >>> 0;
    }
    this.write((rtp.header.timestamp + this.forwardOffset) >>> 0, rtp.payload);
  }

  /**
   * Sends the packets due by now: the tone alone, the hold music or the conference's mix in a group;
   * nothing while forwarding its bridged party's audio (which paces itself).
   */
  tick(now: number) {
    if (!this.connected || (!this.group && this.forwarding)) {
      this.nextToneAt = 0;
      return;
    }
    if (this.nextToneAt === 0 || now - this.nextToneAt > MAX_CATCH_UP * PACKET_MS) this.nextToneAt = now;
    while (this.nextToneAt <= now) {
      this.nextToneAt += PACKET_MS;
      const samples = this.samplesPerPacket();
      const payload = this.group
        ? this.music
          ? this.codec === 'PCMU'
            ? this.nextMusic()
            : OPUS_SILENCE
          : this.mix(now)
        : this.codec === 'PCMU'
          ? this.nextTone()
          : OPUS_SILENCE;
      this.write((this.timestamp + samples) >>> 0, payload);
    }
  }

  /**
   * What this member hears of its group: the fresh packets of the others who are heard, in its codec.
   * One voice passes as it came; several PCMU voices are summed (Opus cannot be decoded here: the first
   * one passes).
   */
  private mix(now: number): Buffer {
    const voices: Buffer[] = [];
    for (const other of this.group ?? []) {
      const last = other.last;
      if (other === this || !other.heard || !last || last.codec !== this.codec || now - last.at > MIX_FRESH_MS) continue;
      voices.push(last.payload);
    }
    if (this.codec !== 'PCMU') return voices[0] ?? OPUS_SILENCE;
    if (voices.length <= 1) return voices[0] ?? PCMU_SILENCE;
    const mixed = Buffer.alloc(PCMU_SAMPLES);
    for (let i = 0; i < PCMU_SAMPLES; i++) {
      let sum = 0;
      for (const voice of voices) sum += decodeMuLaw(voice[i] ?? 0xff);
      mixed[i] = encodeMuLaw(sum);
    }
    return mixed;
  }

  private nextMusic() {
    const payload = HOLD_MUSIC.subarray(this.musicPosition, this.musicPosition + PCMU_SAMPLES);
    this.musicPosition = (this.musicPosition + PCMU_SAMPLES) % HOLD_MUSIC.length;
    return payload;
  }

  /** A source change (bridge or unbridge): the next packet starts a new talkspurt on the continued timeline. */
  switchSource() {
    this.forwardOffset = undefined;
    this.marker = true;
  }

  private samplesPerPacket() {
    return this.codec === 'opus' ? OPUS_SAMPLES : PCMU_SAMPLES;
  }

  private nextTone() {
    // A second of tone is a whole number of packets, so a packet never wraps around its end.
    const payload = TONE.subarray(this.tonePosition, this.tonePosition + PCMU_SAMPLES);
    this.tonePosition = (this.tonePosition + PCMU_SAMPLES) % TONE.length;
    return payload;
  }

  private write(timestamp: number, payload: Buffer) {
    this.sequenceNumber = (this.sequenceNumber + 1) & 0xffff;
    this.timestamp = timestamp;
    // The sender sets the SSRC and the negotiated payload type.
    const header = new RtpHeader({ sequenceNumber: this.sequenceNumber, timestamp, marker: this.marker });
    this.marker = false;
    this.track.writeRtp(new RtpPacket(header, payload));
    this.sent.packets++;
    this.sent.bytes += payload.length;
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    this.group?.delete(this);
    this.group = undefined;
    const peer = this.peer;
    this.peer = undefined;
    if (peer) {
      peer.peer = undefined;
      peer.switchSource();
    }
    this.onClose(this);
    await this.pc.close();
  }
}

/**
 * The emulator's WebRTC peers (werift): each answers or makes an audio offer (PCMU preferred, Opus,
 * DTLS-SRTP, loopback host candidates), plays a 440 Hz tone while alone and counts the RTP it gets.
 * One timer paces every session's tone at 20 ms.
 */
export function createMediaEngine(): MediaEngine {
  const sessions = new Set<PeerSession>();
  let timer: NodeJS.Timeout | undefined;

  function open() {
    const session = new PeerSession(new RTCPeerConnection(peerConfig()), (closed) => {
      sessions.delete(closed);
      if (sessions.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    });
    sessions.add(session);
    if (!timer) {
      timer = setInterval(() => {
        const now = performance.now();
        for (const s of sessions) s.tick(now);
      }, PACKET_MS / 2);
      timer.unref();
    }
    return session;
  }

  function own(session: MediaSession) {
    if (!(session instanceof PeerSession)) throw new Error('A media session of another engine.');
    return session;
  }

  return {
    async answer(offerSdp) {
      const session = open();
      try {
        await session.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
        const transceiver = session.pc.getTransceivers().find((t) => t.kind === 'audio');
        if (!transceiver) throw new Error('The offer has no audio.');
        preferPcmu(transceiver);
        session.pc.addTrack(session.track);
        await session.pc.setLocalDescription(await session.pc.createAnswer());
        return { session, answerSdp: await gathered(session.pc) };
      } catch (error) {
        await session.close();
        throw error;
      }
    },

    async offer() {
      const session = open();
      try {
        session.pc.addTransceiver(session.track, { direction: 'sendrecv' });
        await session.pc.setLocalDescription(await session.pc.createOffer());
        const offerSdp = await gathered(session.pc);
        return {
          session,
          offerSdp,
          async complete(answerSdp: string) {
            await session.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
            preferPcmu(session.pc.getTransceivers()[0]);
          },
        };
      } catch (error) {
        await session.close();
        throw error;
      }
    },

    bridge(a, b) {
      const [first, second] = [own(a), own(b)];
      if (first === second || first.closed || second.closed) return;
      for (const s of [first, second]) {
        if (s.peer) {
          s.peer.peer = undefined;
          s.peer.switchSource();
        }
        s.switchSource();
      }
      first.peer = second;
      second.peer = first;
    },

    mix(members) {
      const group = new Set<PeerSession>();
      for (const member of members) {
        const session = own(member.session);
        if (session.closed) continue;
        if (session.peer) {
          session.peer.peer = undefined;
          session.peer.switchSource();
          session.peer = undefined;
        }
        const previous = session.group;
        if (previous && previous !== group) previous.delete(session);
        if (previous !== group || session.music !== member.music) session.switchSource();
        session.group = group;
        session.music = member.music;
        session.heard = member.heard;
        group.add(session);
      }
      return group.size;
    },

    leaveMix(member) {
      const session = own(member);
      if (!session.group) return;
      session.group.delete(session);
      session.group = undefined;
      session.music = false;
      session.heard = true;
      session.switchSource();
    },

    async close() {
      await Promise.all([...sessions].map((s) => s.close()));
    },
  };
}
