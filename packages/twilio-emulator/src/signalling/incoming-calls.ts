import type { AccountRecord, CallRecord } from '../model';
import { isFinal } from '../voice/call-legs';
import { reconnectToken } from './reconnect-window';
import {
  closeSession,
  type Device,
  endMedia,
  type IncomingCall,
  type Ring,
  type SignallingContext,
  send,
} from './signalling-context';

const root = (call: CallRecord) => call.parentCallSid ?? call.sid;

/*
 * Calls to a client: a `<Dial><Client>` leg invites the identity's registered devices, the first
 * `answer` takes it (its media attached to the call's), the others hear `cancel`; `reject` declines.
 */

/** A `<Dial><Client>` leg rings: every registered device of that identity in that account is invited. */
export function ring(ctx: SignallingContext, account: AccountRecord, leg: CallRecord) {
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
  ctx.incoming.set(leg.sid, call);
  if (!ctx.media) return;
  const parameters = {
    CallSid: leg.sid,
    From: leg.from,
    To: leg.to,
    AccountSid: account.sid,
    Params: Object.entries(leg.parameters)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&'),
  };
  for (const device of ctx.devices) {
    if (!device.registered || device.token?.accountSid !== account.sid || device.token.identity !== identity) continue;
    const entry: Ring = {
      device,
      done: false,
      offer: ctx.media.engine.offer().then(
        (offer) => {
          if (entry.done) {
            void closeSession(ctx, offer.session);
            return undefined;
          }
          send(device, 'invite', { callsid: leg.sid, sdp: offer.offerSdp, parameters, reconnect: call.reconnect });
          return offer;
        },
        (error: unknown) => {
          ctx.log.warn(`offering ${leg.sid} to ${identity}: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        },
      ),
    };
    call.rings.set(device, entry);
  }
}

/** Stops ringing a device: it hears `cancel` (unless it ended the ring itself) and its offer is dropped. */
export function stopRinging(ctx: SignallingContext, call: IncomingCall, entry: Ring, tell: boolean) {
  if (entry.done) return;
  entry.done = true;
  if (tell) send(entry.device, 'cancel', { callsid: call.legSid });
  void entry.offer.then((offer) => closeSession(ctx, offer?.session));
}

export function onIncomingChange(ctx: SignallingContext, leg: CallRecord, call: IncomingCall) {
  if (leg.status === 'in-progress' || isFinal(leg)) {
    // Answered here (or through the emulator's controls), or ended before: the other devices stop ringing.
    for (const entry of call.rings.values()) if (entry.device !== call.winner) stopRinging(ctx, call, entry, true);
  }
  if (isFinal(leg)) {
    ctx.incoming.delete(leg.sid);
    ctx.held.release(call.reconnect);
    if (call.winner && leg.answeredAt && !call.clientHungUp) send(call.winner, 'hangup', { callsid: leg.sid });
  }
}

export async function answer(ctx: SignallingContext, device: Device, payload: Record<string, unknown>) {
  const callsid = String(payload.callsid ?? '');
  const call = ctx.incoming.get(callsid);
  const entry = call?.rings.get(device);
  if (!call || !entry || entry.done) {
    // Another device answered first, or the caller gave up meanwhile.
    send(device, 'cancel', { callsid });
    return;
  }
  if (call.winner || typeof payload.sdp !== 'string') {
    stopRinging(ctx, call, entry, true);
    return;
  }
  call.winner = device;
  const offer = await entry.offer;
  const [answered, completed] = await Promise.all([
    ctx.voice.answer(callsid, `client:${call.identity}`),
    offer
      ? offer.complete(payload.sdp).then(
          () => true,
          (error: unknown) => {
            ctx.log.warn(`completing the media of ${callsid}: ${error instanceof Error ? error.message : String(error)}`);
            return false;
          },
        )
      : Promise.resolve(false),
  ]);
  if (!answered.ok) {
    call.winner = undefined;
    stopRinging(ctx, call, entry, true);
    return;
  }
  entry.done = true;
  if (!offer || !completed) {
    void closeSession(ctx, offer?.session);
    await ctx.voice.hangUp(callsid);
    return;
  }
  ctx.media?.callMedia.attach(call.rootSid, 'client', offer.session);
  ctx.attachedRoots.add(call.rootSid);
  // The caller may have hung up while the media completed.
  const root = ctx.store.findCall(call.rootSid)?.call;
  if (!root || isFinal(root)) endMedia(ctx, call.rootSid);
}

export async function reject(ctx: SignallingContext, device: Device, payload: Record<string, unknown>) {
  const callsid = String(payload.callsid ?? '');
  const call = ctx.incoming.get(callsid);
  const entry = call?.rings.get(device);
  if (!call || !entry || entry.done) return;
  stopRinging(ctx, call, entry, false);
  // Declined: the leg ends busy, and every other device of the identity stops ringing.
  const leg = ctx.store.findCall(callsid)?.call;
  if (leg?.status === 'ringing') await ctx.voice.hangUp(callsid);
}
