import type { WebSocket } from 'ws';
import type { EmulatorEvents } from '../events';
import type { Logger } from '../log';
import type { CallMedia, MediaEngine, MediaSession } from '../media/media-session';
import type { AccountRecord, CallRecord } from '../model';
import type { EmulatorStore } from '../store';
import { TOKEN_ERRORS, verifyAccessToken } from '../voice/access-token';
import { isFinal } from '../voice/call-legs';
import type { Voice } from '../voice/voice';
import { DEFAULT_HEARTBEAT_MS, keepAlive } from './heartbeat';
import { heldCalls, reconnectToken, reconnectWindowMs } from './reconnect-window';

/** The version the SDK's PStream writes; it reads `type` and `payload` only. */
const PSTREAM_VERSION = '1.6';
/**
 * The signalling errors the SDK knows (its AuthorizationErrors): it reports 31204 as AccessTokenInvalid
 * (20101) and 31205 as AccessTokenExpired (20104), and stops re-registering on 31205.
 */
const SIGNALLING_ERRORS = {
  tokenInvalid: 31204,
  tokenExpired: 31205,
  authorization: 31201,
  general: 31000,
  /** MalformedRequestErrors.ReconnectParameterInvalidError and AuthorizationErrors.ReconnectAttemptError. */
  reconnectInvalid: 31107,
  reconnectUnauthorized: 31209,
} as const;
/** Where the emulator says it is: Twilio's us1, as its edge would answer. */
const LOCATION = { region: 'US_EAST_VIRGINIA', edge: 'ashburn', home: 'us1' } as const;

export interface SignallingMedia {
  engine: MediaEngine;
  callMedia: CallMedia;
}

interface ListenedToken {
  raw: string;
  identity: string;
  accountSid: string;
  applicationSid: string | null;
  incomingAllowed: boolean;
}

/** One Voice SDK `Device` (a browser tab): its socket, the token it listened with, whether it registered. */
interface Device {
  socket: WebSocket;
  token?: ListenedToken;
  registered: boolean;
  /** How long its answered calls outlive its socket (the `reconnectTimeout` of its last `listen`). */
  reconnectWindowMs: number;
  /** Messages are acted on one after another, as they came (a `listen` is checked before the `register` behind it). */
  queue: Promise<void>;
}

type Offer = Awaited<ReturnType<MediaEngine['offer']>>;

/** One device an incoming leg rings: the emulator's offer to it, and whether it heard the end. */
interface Ring {
  device: Device;
  offer: Promise<Offer | undefined>;
  done: boolean;
}

/** A `<Dial><Client>` leg ringing the devices of its identity. */
interface IncomingCall {
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
interface OutgoingCall {
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

interface Message {
  type?: unknown;
  payload?: Record<string, unknown>;
}

/**
 * The Voice SDK's signalling (its PStream protocol, notes/voice-sdk-signalling.md) over the emulator's
 * calls: a device listens with its Access Token and registers its identity; an `invite` runs the
 * account's TwiML application as `POST /_emulator/clients/{identity}/calls` does; a `<Dial><Client>`
 * leg invites every registered device of its identity, the first to answer takes the call and the
 * others are canceled. Audio goes through the media engine: the emulator answers the SDK's offers and
 * offers to the devices it invites, and attaches each answered client's session to its call's media.
 */
export function voiceSdkSignalling(options: {
  store: EmulatorStore;
  events: EmulatorEvents;
  voice: Voice;
  /** Without it (no media engine running) devices still register, but calls cannot carry audio. */
  media?: SignallingMedia;
  /** How often every socket hears a heartbeat; 5 s unless given (tests give less). */
  heartbeatMs?: number;
  log: Logger;
}) {
  const { store, events, voice, media, log } = options;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const held = heldCalls();
  let stopped = false;
  const devices = new Set<Device>();
  /** Incoming legs by their SID; outgoing calls by CallSid and by the SDK's temporary id. */
  const incoming = new Map<string, IncomingCall>();
  const outgoing = new Map<string, OutgoingCall>();
  /** Calls whose media a client session was attached to: their media ends with them. */
  const attachedRoots = new Set<string>();

  function send(device: Device, type: string, payload: Record<string, unknown>) {
    if (device.socket.readyState !== device.socket.OPEN) return;
    device.socket.send(JSON.stringify({ type, version: PSTREAM_VERSION, payload }));
  }
  const sendError = (device: Device, code: number, message: string, callsid?: string) =>
    send(device, 'error', { error: { code, message }, ...(callsid ? { callsid } : {}) });

  const root = (call: CallRecord) => call.parentCallSid ?? call.sid;
  const closeSession = (session: MediaSession | undefined) =>
    session?.close().catch((error: unknown) => log.warn(`closing a media session: ${String(error)}`));

  async function listen(device: Device, payload: Record<string, unknown>) {
    if (typeof payload.token !== 'string') {
      sendError(device, SIGNALLING_ERRORS.tokenInvalid, `${TOKEN_ERRORS.invalid.message}: listen without a token`);
      return;
    }
    const check = await verifyAccessToken(store, payload.token);
    if (!check.valid) {
      const expired = check.error.code === TOKEN_ERRORS.expired.code;
      sendError(device, expired ? SIGNALLING_ERRORS.tokenExpired : SIGNALLING_ERRORS.tokenInvalid, check.error.message);
      return;
    }
    // A later listen is the SDK's token update: the device keeps its registration under the new token.
    device.reconnectWindowMs = reconnectWindowMs(payload.reconnectTimeout);
    device.token = {
      raw: payload.token,
      identity: check.identity,
      accountSid: check.accountSid,
      applicationSid: check.applicationSid,
      incomingAllowed: check.grants.voice?.incoming?.allow === true,
    };
    const ttl = Math.max(0, Math.floor((Date.parse(check.expiresAt) - store.clock.now()) / 1000));
    send(device, 'connected', { ...LOCATION, token: { identity: check.identity, ttl } });
  }

  async function register(device: Device, payload: Record<string, unknown>) {
    if (!device.token) {
      sendError(device, SIGNALLING_ERRORS.tokenInvalid, 'Cannot register: listen with a valid Access Token first');
      return;
    }
    // The SDK registers again every 30 s: an expired token ends the registration then, as Twilio's does.
    const check = await verifyAccessToken(store, device.token.raw);
    if (!check.valid) {
      device.registered = false;
      const expired = check.error.code === TOKEN_ERRORS.expired.code;
      sendError(device, expired ? SIGNALLING_ERRORS.tokenExpired : SIGNALLING_ERRORS.tokenInvalid, check.error.message);
      return;
    }
    const wanted = (payload.media as { audio?: unknown } | undefined)?.audio !== false;
    if (!wanted) {
      // `Device.unregister()` waits for the stream to go offline.
      device.registered = false;
      send(device, 'offline', {});
      return;
    }
    if (!device.token.incomingAllowed) {
      sendError(device, SIGNALLING_ERRORS.authorization, 'Cannot register: the token does not allow incoming calls');
      return;
    }
    device.registered = true;
    send(device, 'ready', {});
  }

  function invite(device: Device, payload: Record<string, unknown>) {
    if (typeof payload.reconnect === 'string') {
      resume(device, payload.reconnect, String(payload.callsid ?? ''));
      return;
    }
    const tempSid = typeof payload.callsid === 'string' ? payload.callsid : '';
    const sdp = payload.sdp;
    const token = device.token;
    if (!token) {
      sendError(device, SIGNALLING_ERRORS.tokenInvalid, 'Cannot call: listen with a valid Access Token first', tempSid);
      return;
    }
    if (!tempSid || typeof sdp !== 'string') {
      sendError(device, SIGNALLING_ERRORS.general, 'Malformed invite: callsid and sdp are required', tempSid || undefined);
      return;
    }
    const refuse = (code: number, message: string) => send(device, 'hangup', { callsid: tempSid, error: { code, message } });
    if (!token.applicationSid) {
      refuse(SIGNALLING_ERRORS.authorization, 'The Access Token has no outgoing application: it may not call out');
      return;
    }
    if (!media) {
      refuse(SIGNALLING_ERRORS.general, 'The emulator has no media engine running: calls cannot carry audio');
      return;
    }
    const raw = (payload.twilio as { params?: unknown } | undefined)?.params;
    const params = Object.fromEntries(new URLSearchParams(typeof raw === 'string' ? raw : ''));
    const call: OutgoingCall = {
      device,
      tempSid,
      reconnect: reconnectToken(),
      media: media.engine.answer(sdp).catch((error: unknown) => {
        log.warn(`answering the offer of ${tempSid}: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }),
      answered: false,
      attached: false,
      ended: false,
      clientHungUp: false,
    };
    outgoing.set(tempSid, call);
    void (async () => {
      const started = await voice.callFromClient({
        accountSid: token.accountSid,
        applicationSid: token.applicationSid ?? '',
        identity: token.identity,
        params,
      });
      if (!started.ok) {
        outgoing.delete(tempSid);
        call.ended = true;
        void closeSession((await call.media)?.session);
        refuse(SIGNALLING_ERRORS.general, started.error);
        return;
      }
      const sid = started.value.sid;
      call.sid = sid;
      outgoing.set(sid, call);
      send(device, 'ringing', { callsid: sid });
      if (call.clientHungUp) await voice.hangUp(sid);
      // The call may have moved on while its TwiML was first requested: act on where it is now.
      const found = store.findCall(sid);
      if (found) onOutgoingChange(found.call, call);
    })().catch((error: unknown) => log.error(`outgoing call of ${tempSid}: ${String(error)}`));
  }

  /** The device's call moved: it is answered (the SDK gets the emulator's SDP answer) or ended. */
  function onOutgoingChange(record: CallRecord, call: OutgoingCall) {
    if (call.ended) return;
    if (isFinal(record)) {
      call.ended = true;
      held.release(call.reconnect);
      for (const id of [call.tempSid, record.sid]) outgoing.delete(id);
      if (!call.clientHungUp) send(call.device, 'hangup', { callsid: record.sid });
      if (!call.attached) void call.media.then((m) => closeSession(m?.session));
      endMedia(record.sid);
      return;
    }
    if (record.status === 'in-progress' && !call.answered) {
      call.answered = true;
      void call.media.then((answer) => {
        if (call.ended || !answer) {
          void closeSession(answer?.session);
          if (!answer && !call.ended) void voice.hangUp(record.sid);
          return;
        }
        send(call.device, 'answer', { callsid: record.sid, sdp: answer.answerSdp, reconnect: call.reconnect });
        media?.callMedia.attach(record.sid, 'client', answer.session);
        call.attached = true;
        attachedRoots.add(record.sid);
      });
    }
  }

  function endMedia(rootSid: string) {
    if (!attachedRoots.delete(rootSid)) return;
    media?.callMedia.end(rootSid).catch((error: unknown) => log.warn(`ending the media of ${rootSid}: ${String(error)}`));
  }

  /** A `<Dial><Client>` leg rings: every registered device of that identity in that account is invited. */
  function ring(account: AccountRecord, leg: CallRecord) {
    const identity = leg.to.slice('client:'.length);
    const call: IncomingCall = {
      legSid: leg.sid,
      rootSid: root(leg),
      accountSid: account.sid,
      identity,
      reconnect: reconnectToken(),
      rings: new Map(),
      clientHungUp: false,
    };
    incoming.set(leg.sid, call);
    if (!media) return;
    const parameters = {
      CallSid: leg.sid,
      From: leg.from,
      To: leg.to,
      AccountSid: account.sid,
      Params: Object.entries(leg.parameters)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&'),
    };
    for (const device of devices) {
      if (!device.registered || device.token?.accountSid !== account.sid || device.token.identity !== identity) continue;
      const entry: Ring = {
        device,
        done: false,
        offer: media.engine.offer().then(
          (offer) => {
            if (entry.done) {
              void closeSession(offer.session);
              return undefined;
            }
            send(device, 'invite', { callsid: leg.sid, sdp: offer.offerSdp, parameters, reconnect: call.reconnect });
            return offer;
          },
          (error: unknown) => {
            log.warn(`offering ${leg.sid} to ${identity}: ${error instanceof Error ? error.message : String(error)}`);
            return undefined;
          },
        ),
      };
      call.rings.set(device, entry);
    }
  }

  /** Stops ringing a device: it hears `cancel` (unless it ended the ring itself) and its offer is dropped. */
  function stopRinging(call: IncomingCall, entry: Ring, tell: boolean) {
    if (entry.done) return;
    entry.done = true;
    if (tell) send(entry.device, 'cancel', { callsid: call.legSid });
    void entry.offer.then((offer) => closeSession(offer?.session));
  }

  function onIncomingChange(leg: CallRecord, call: IncomingCall) {
    if (leg.status === 'in-progress' || isFinal(leg)) {
      // Answered here (or through the emulator's controls), or ended before: the other devices stop ringing.
      for (const entry of call.rings.values()) if (entry.device !== call.winner) stopRinging(call, entry, true);
    }
    if (isFinal(leg)) {
      incoming.delete(leg.sid);
      held.release(call.reconnect);
      if (call.winner && leg.answeredAt && !call.clientHungUp) send(call.winner, 'hangup', { callsid: leg.sid });
    }
  }

  async function answer(device: Device, payload: Record<string, unknown>) {
    const callsid = String(payload.callsid ?? '');
    const call = incoming.get(callsid);
    const entry = call?.rings.get(device);
    if (!call || !entry || entry.done) {
      // Another device answered first, or the caller gave up meanwhile.
      send(device, 'cancel', { callsid });
      return;
    }
    if (call.winner || typeof payload.sdp !== 'string') {
      stopRinging(call, entry, true);
      return;
    }
    call.winner = device;
    const offer = await entry.offer;
    const [answered, completed] = await Promise.all([
      voice.answer(callsid, `client:${call.identity}`),
      offer
        ? offer.complete(payload.sdp).then(
            () => true,
            (error: unknown) => {
              log.warn(`completing the media of ${callsid}: ${error instanceof Error ? error.message : String(error)}`);
              return false;
            },
          )
        : Promise.resolve(false),
    ]);
    if (!answered.ok) {
      call.winner = undefined;
      stopRinging(call, entry, true);
      return;
    }
    entry.done = true;
    if (!offer || !completed) {
      void closeSession(offer?.session);
      await voice.hangUp(callsid);
      return;
    }
    media?.callMedia.attach(call.rootSid, 'client', offer.session);
    attachedRoots.add(call.rootSid);
    // The caller may have hung up while the media completed.
    const root = store.findCall(call.rootSid)?.call;
    if (!root || isFinal(root)) endMedia(call.rootSid);
  }

  async function reject(device: Device, payload: Record<string, unknown>) {
    const callsid = String(payload.callsid ?? '');
    const call = incoming.get(callsid);
    const entry = call?.rings.get(device);
    if (!call || !entry || entry.done) return;
    stopRinging(call, entry, false);
    // Declined: the leg ends busy, and every other device of the identity stops ringing.
    const leg = store.findCall(callsid)?.call;
    if (leg?.status === 'ringing') await voice.hangUp(callsid);
  }

  async function hangup(device: Device, payload: Record<string, unknown>) {
    const callsid = String(payload.callsid ?? '');
    const out = outgoing.get(callsid);
    if (out && out.device === device) {
      out.clientHungUp = true;
      if (out.sid && !out.ended) await voice.hangUp(out.sid);
      return;
    }
    const call = incoming.get(callsid);
    if (!call) return;
    if (call.winner === device) {
      call.clientHungUp = true;
      await voice.hangUp(callsid);
    } else await reject(device, payload);
  }

  function dtmf(device: Device, payload: Record<string, unknown>) {
    const callsid = String(payload.callsid ?? '');
    const onCall = outgoing.get(callsid)?.device === device || incoming.get(callsid)?.winner === device;
    if (!onCall) {
      sendError(device, SIGNALLING_ERRORS.general, `Could not send DTMF: ${callsid} is not a call of this device`, callsid);
      return;
    }
    const sent = voice.sendDigits(callsid, String(payload.dtmf ?? ''));
    if (!sent.ok) sendError(device, SIGNALLING_ERRORS.general, `Could not send DTMF: ${sent.error}`, callsid);
  }

  /**
   * The SDK's signalling reconnect (Call `_onConnected` → PStream `reconnect`): on every `connected`
   * (its socket came back, or it updated its token) each call holding a reconnect token sends `invite`
   * with `reconnect`, its CallSid and its current SDP. Twilio answers `answer` with the token, and the
   * SDK's call goes on (`reconnected` when it had lost its socket). No SDP is sent back: the media never
   * stopped, and the SDK no longer reads one once a call is answered.
   */
  function resume(device: Device, token: string, callsid: string) {
    const out = outgoing.get(callsid);
    const call = incoming.get(callsid);
    const owner =
      out?.reconnect === token
        ? out.device.token
        : call?.reconnect === token && call.winner
          ? { identity: call.identity, accountSid: call.accountSid }
          : undefined;
    if (!owner) {
      // Ended while the device was away (the far end hung up, or the window passed): it just hears the end.
      const ended = store.findCall(callsid);
      send(device, 'hangup', {
        callsid,
        ...(ended && isFinal(ended.call)
          ? {}
          : { error: { code: SIGNALLING_ERRORS.reconnectInvalid, message: 'The reconnect parameter is invalid' } }),
      });
      return;
    }
    if (device.token?.identity !== owner.identity || device.token.accountSid !== owner.accountSid) {
      const error = { code: SIGNALLING_ERRORS.reconnectUnauthorized, message: 'Reconnect attempt is not authorized.' };
      send(device, 'hangup', { callsid, error });
      return;
    }
    held.release(token);
    if (out) out.device = device;
    else if (call) call.winner = device;
    send(device, 'answer', { callsid, reconnect: token });
  }

  async function act(device: Device, message: Message) {
    const payload = message.payload && typeof message.payload === 'object' ? message.payload : {};
    switch (message.type) {
      case 'listen':
        return listen(device, payload);
      case 'register':
        return register(device, payload);
      case 'invite':
        return invite(device, payload);
      case 'answer':
        return answer(device, payload);
      case 'reject':
        return reject(device, payload);
      case 'hangup':
        return hangup(device, payload);
      case 'dtmf':
        return dtmf(device, payload);
      default:
        // reinvite (ICE restart) and user-defined messages are not carried out by the emulator.
        log.info(`signalling: ${String(message.type)} is not carried out by the emulator; ignored`);
    }
  }

  /**
   * The socket went away: the device is no longer registered and stops ringing. Its answered calls
   * wait for it to come back within its reconnect window (Twilio's `reconnectTimeout`), then end; its
   * calls not yet answered end now (the SDK has no reconnect token for them).
   */
  function forget(device: Device) {
    devices.delete(device);
    // Stopping closes every socket: nothing is held past the emulator's end.
    if (stopped) return;
    for (const call of incoming.values()) {
      if (call.winner === device) {
        held.hold(call.reconnect, device.reconnectWindowMs, () => {
          call.clientHungUp = true;
          void voice.hangUp(call.legSid);
        });
        continue;
      }
      const entry = call.rings.get(device);
      if (entry) stopRinging(call, entry, false);
    }
    for (const call of new Set(outgoing.values())) {
      if (call.device !== device || call.ended) continue;
      const end = () => {
        call.clientHungUp = true;
        if (call.sid) void voice.hangUp(call.sid);
      };
      if (call.answered) held.hold(call.reconnect, device.reconnectWindowMs, end);
      else end();
    }
  }

  const onCall = (account: AccountRecord, record: CallRecord) => {
    const out = outgoing.get(record.sid);
    if (out?.sid === record.sid) onOutgoingChange(record, out);
    const known = incoming.get(record.sid);
    if (known) onIncomingChange(record, known);
    else if (record.parentCallSid && record.to.startsWith('client:') && record.status === 'ringing') ring(account, record);
    if (!record.parentCallSid && isFinal(record)) endMedia(record.sid);
  };
  events.on('call', onCall);

  return {
    /** A Voice SDK socket connected to `/signal`. */
    connect(socket: WebSocket) {
      const device: Device = { socket, registered: false, reconnectWindowMs: 0, queue: Promise.resolve() };
      devices.add(device);
      const heartbeat = keepAlive(socket, heartbeatMs);
      socket.on('message', (data, isBinary) => {
        if (heartbeat.heard(data, isBinary)) return;
        let message: Message;
        try {
          message = isBinary ? {} : (JSON.parse(String(data)) as Message);
        } catch {
          sendError(device, SIGNALLING_ERRORS.general, 'Signalling messages are JSON text');
          return;
        }
        device.queue = device.queue
          .then(() => act(device, message))
          .catch((error: unknown) =>
            log.error(
              `signalling ${String(message.type)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            ),
          );
      });
      socket.on('close', () => forget(device));
      socket.on('error', (error) => log.warn(`signalling socket: ${error.message}`));
    },
    /** The registered devices, for the status page. */
    registrations() {
      return [...devices].filter((d) => d.registered && d.token).map((d) => d.token?.identity ?? '');
    },
    stop() {
      stopped = true;
      events.off('call', onCall);
      held.stop();
      for (const device of devices) device.socket.terminate();
    },
  };
}

export type VoiceSdkSignalling = ReturnType<typeof voiceSdkSignalling>;
