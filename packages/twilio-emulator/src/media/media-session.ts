/**
 * The emulator's side of call audio: a WebRTC peer per browser leg (the Voice SDK's, or the phone
 * simulator page's). Signalling carries the SDP; this module owns the peers. No trickle ICE: every
 * SDP carries its candidates, as the Voice SDK expects (notes/voice-sdk-signalling.md).
 */
export interface RtpCounts {
  packets: number;
  bytes: number;
  /** Packets that carry sound (not silence): what stops growing when the far end mutes. */
  audioPackets: number;
}

export interface MediaStats {
  /** The negotiated codec ('PCMU' or 'opus'), null before negotiation completes. */
  codec: string | null;
  received: RtpCounts;
  sent: { packets: number; bytes: number };
}

export interface MediaSession {
  readonly id: string;
  stats(): MediaStats;
  close(): Promise<void>;
}

export interface MediaEngine {
  /** The browser offered (an SDK `invite`, or the phone page): answer with the emulator's SDP. */
  answer(offerSdp: string): Promise<{ session: MediaSession; answerSdp: string }>;
  /** The emulator invites a browser (a call to a Voice SDK client): offer, then complete with its answer. */
  offer(): Promise<{ session: MediaSession; offerSdp: string; complete(answerSdp: string): Promise<void> }>;
  /**
   * The two parties hear each other: each session's received audio goes to the other instead of the
   * tone a lone session plays. Ends when either session closes.
   */
  bridge(a: MediaSession, b: MediaSession): void;
  /**
   * A conference: each member hears the mix of the others that are `heard` (their bridges end), or the
   * hold music where `music`. Given again whole on every change; answers how many members are live.
   */
  mix(members: { session: MediaSession; music: boolean; heard: boolean }[]): number;
  /** A session leaves its conference: alone again, it hears the tone. */
  leaveMix(session: MediaSession): void;
  close(): Promise<void>;
}

/** Which end of a call a session serves: the Voice SDK in a product user's browser, or the phone simulator page. */
export type MediaSide = 'client' | 'phone';

/**
 * The media of each call, keyed by its root call's SID (a leg's parent call; the call itself when it
 * has none). One side alone hears the emulator's tone; once both sides are attached they are bridged.
 */
/** A call in a conference, as the media mixes it: held (it hears music, nobody hears it), muted, waiting. */
export interface ConferenceMember {
  rootCallSid: string;
  /** The call's party among its root call's sides: a `<Dial>` leg and its parent call can be in one conference. */
  side: MediaSide;
  music: boolean;
  heard: boolean;
}

export interface CallMedia {
  attach(rootCallSid: string, side: MediaSide, session: MediaSession): void;
  /**
   * The conference's calls now (empty once it ended): their sessions are mixed, held ones hear music;
   * a call that left it hears the tone again. Sessions attached later join the mix.
   */
  conference(conferenceSid: string, members: ConferenceMember[]): void;
  stats(rootCallSid: string): Partial<Record<MediaSide, MediaStats>>;
  /** The call ended: close its sessions. */
  end(rootCallSid: string): Promise<void>;
}
