import type { WebSocket } from 'ws';
import type { Logger } from '../log';
import type { CallMedia, MediaEngine, MediaSession } from '../media/media-session';
import type { EmulatorStore } from '../store';
import type { Voice } from '../voice/voice';
import type { heldCalls } from './reconnect-window';

/** The version the SDK's PStream writes; it reads `type` and `payload` only. */
export const PSTREAM_VERSION = '1.6';
/**
 * The signalling errors the SDK knows (its AuthorizationErrors): it reports 31204 as AccessTokenInvalid
 * (20101) and 31205 as AccessTokenExpired (20104), and stops re-registering on 31205.
 */
export const SIGNALLING_ERRORS = {
  tokenInvalid: 31204,
  tokenExpired: 31205,
  authorization: 31201,
  general: 31000,
  /** MalformedRequestErrors.ReconnectParameterInvalidError and AuthorizationErrors.ReconnectAttemptError. */
  reconnectInvalid: 31107,
  reconnectUnauthorized: 31209,
} as const;
/** Where the emulator says it is: Twilio's us1, as its edge would answer. */
export const LOCATION = { region: 'US_EAST_VIRGINIA', edge: 'ashburn', home: 'us1' } as const;

export interface SignallingMedia {
  engine: MediaEngine;
  callMedia: CallMedia;
}

export interface ListenedToken {
  raw: string;
  identity: string;
  accountSid: string;
  applicationSid: string | null;
  incomingAllowed: boolean;
}

/** One Voice SDK `Device` (a browser tab): its socket, the token it listened with, whether it registered. */
export interface Device {
  socket: WebSocket;
  token?: ListenedToken;
  registered: boolean;
  /** How long its answered calls outlive its socket (the `reconnectTimeout` of its last `listen`). */
  reconnectWindowMs: number;
  /** Messages are acted on one after another, as they came (a `listen` is checked before the `register` behind it). */
  queue: Promise<void>;
}

export type Offer = Awaited<ReturnType<MediaEngine['offer']>>;

/** One device an incoming leg rings: the emulator's offer to it, and whether it heard the end. */
export interface Ring {
  device: Device;
  offer: Promise<Offer | undefined>;
  done: boolean;
}

/** A `<Dial><Client>` leg ringing the devices of its identity. */
export interface IncomingCall {
  legSid: string;
  rootSid: string;
  accountSid: string;
  identity: string;
  /** Sent with the invite: the device that answers resumes the call with it after its socket came back. */
  reconnect: string;
  rings: Map<Device, Ring>;
  /** The device that answered first; the others are canceled. */
  winner?: Device;
  clientHungUp: boolean;
}

/** A call a device placed (`invite`): the call of the TwiML application, once it exists. */
export interface OutgoingCall {
  device: Device;
  /** The SDK's temporary id (TJS…) until `ringing` gives it the CallSid. */
  tempSid: string;
  sid?: string;
  /** Sent with the answer: the device resumes the call with it after its socket came back. */
  reconnect: string;
  media: Promise<{ session: MediaSession; answerSdp: string } | undefined>;
  answered: boolean;
  attached: boolean;
  ended: boolean;
  clientHungUp: boolean;
}

export interface Message {
  type?: unknown;
  payload?: Record<string, unknown>;
}

/**
 * What the signalling's parts (voice-sdk-signalling.ts, outgoing-calls.ts, incoming-calls.ts,
 * resume.ts) share: the emulator's parts they act through, and the devices and calls they track.
 */
export interface SignallingContext {
  store: EmulatorStore;
  voice: Voice;
  media?: SignallingMedia;
  log: Logger;
  held: ReturnType<typeof heldCalls>;
  devices: Set<Device>;
  /** Incoming legs by their SID; outgoing calls by CallSid and by the SDK's temporary id. */
  incoming: Map<string, IncomingCall>;
  outgoing: Map<string, OutgoingCall>;
  /** Calls whose media a client session was attached to: their media ends with them. */
  attachedRoots: Set<string>;
}

export function send(device: Device, type: string, payload: Record<string, unknown>) {
  if (device.socket.readyState !== device.socket.OPEN) return;
  device.socket.send(JSON.stringify({ type, version: PSTREAM_VERSION, payload }));
}
export const sendError = (device: Device, code: number, message: string, callsid?: string) =>
  send(device, 'error', { error: { code, message }, ...(callsid ? { callsid } : {}) });

export const closeSession = (ctx: SignallingContext, session: MediaSession | undefined) =>
  session?.close().catch((error: unknown) => ctx.log.warn(`closing a media session: ${String(error)}`));

export function endMedia(ctx: SignallingContext, rootSid: string) {
  if (!ctx.attachedRoots.delete(rootSid)) return;
  ctx.media?.callMedia.end(rootSid).catch((error: unknown) => ctx.log.warn(`ending the media of ${rootSid}: ${String(error)}`));
}
