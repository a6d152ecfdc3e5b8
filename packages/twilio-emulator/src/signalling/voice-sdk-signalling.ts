import type { WebSocket } from 'ws';
import type { EmulatorEvents } from '../events';
import type { Logger } from '../log';
import type { AccountRecord, CallRecord } from '../model';
import type { EmulatorStore } from '../store';
import { TOKEN_ERRORS, verifyAccessToken } from '../voice/access-token';
import { isFinal } from '../voice/call-legs';
import type { Voice } from '../voice/voice';
import { DEFAULT_HEARTBEAT_MS, keepAlive } from './heartbeat';
import { answer, onIncomingChange, reject, ring, stopRinging } from './incoming-calls';
import { invite, onOutgoingChange } from './outgoing-calls';
import { heldCalls, reconnectWindowMs } from './reconnect-window';
import {
  type Device,
  endMedia,
  type IncomingCall,
  LOCATION,
  type Message,
  type OutgoingCall,
  SIGNALLING_ERRORS,
  type SignallingContext,
  type SignallingMedia,
  send,
  sendError,
} from './signalling-context';

/**
 * The Voice SDK's signalling (its PStream protocol, notes/voice-sdk-signalling.md) over the emulator's
 * calls: a device listens with its Access Token and registers its identity; an `invite` runs the
 * account's TwiML application as `POST /_emulator/clients/{identity}/calls` does; a `<Dial><Client>`
 * leg invites every registered device of its identity, the first to answer takes the call and the
 * others are canceled. Audio goes through the media engine: the emulator answers the SDK's offers and
 * offers to the devices it invites, and attaches each answered client's session to its call's media.
 * This module keeps the sockets, `listen`/`register` and the messages' dispatch; calls are in
 * outgoing-calls.ts and incoming-calls.ts, reconnects in resume.ts.
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

  const ctx: SignallingContext = { store, voice, media, log, held, devices, incoming, outgoing, attachedRoots };

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
    } else await reject(ctx, device, payload);
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

  async function act(device: Device, message: Message) {
    const payload = message.payload && typeof message.payload === 'object' ? message.payload : {};
    switch (message.type) {
      case 'listen':
        return listen(device, payload);
      case 'register':
        return register(device, payload);
      case 'invite':
        return invite(ctx, device, payload);
      case 'answer':
        return answer(ctx, device, payload);
      case 'reject':
        return reject(ctx, device, payload);
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
      if (entry) stopRinging(ctx, call, entry, false);
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
    if (out?.sid === record.sid) onOutgoingChange(ctx, record, out);
    const known = incoming.get(record.sid);
    if (known) onIncomingChange(ctx, record, known);
    // A <Dial><Client> leg, or a client dialled into a conference through the Participants resource.
    else if (
      (record.parentCallSid || record.direction === 'outbound-api') &&
      record.to.startsWith('client:') &&
      record.status === 'ringing'
    )
      ring(ctx, account, record);
    if (!record.parentCallSid && isFinal(record)) endMedia(ctx, record.sid);
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
