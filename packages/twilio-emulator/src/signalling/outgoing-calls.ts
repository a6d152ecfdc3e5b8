import type { CallRecord } from '../model';
import { isFinal } from '../voice/call-legs';
import { reconnectToken } from './reconnect-window';
import { resume } from './resume';
import {
  closeSession,
  type Device,
  endMedia,
  type OutgoingCall,
  SIGNALLING_ERRORS,
  type SignallingContext,
  send,
  sendError,
} from './signalling-context';

/**
 * Calls a device places: its `invite` runs the account's TwiML application (as
 * `POST /_emulator/clients/{identity}/calls` does), and the call's progress reaches it as `ringing`,
 * `answer` (with the emulator's SDP) and `hangup`.
 */
export function invite(ctx: SignallingContext, device: Device, payload: Record<string, unknown>) {
  if (typeof payload.reconnect === 'string') {
    resume(ctx, device, payload.reconnect, String(payload.callsid ?? ''));
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
  if (!ctx.media) {
    refuse(SIGNALLING_ERRORS.general, 'The emulator has no media engine running: calls cannot carry audio');
    return;
  }
  const raw = (payload.twilio as { params?: unknown } | undefined)?.params;
  const params = Object.fromEntries(new URLSearchParams(typeof raw === 'string' ? raw : ''));
  const call: OutgoingCall = {
    device,
    tempSid,
    reconnect: reconnectToken(),
    media: ctx.media.engine.answer(sdp).catch((error: unknown) => {
      ctx.log.warn(`answering the offer of ${tempSid}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }),
    answered: false,
    attached: false,
    ended: false,
    clientHungUp: false,
  };
  ctx.outgoing.set(tempSid, call);
  void (async () => {
    const started = await ctx.voice.callFromClient({
      accountSid: token.accountSid,
      applicationSid: token.applicationSid ?? '',
      identity: token.identity,
      params,
    });
    if (!started.ok) {
      ctx.outgoing.delete(tempSid);
      call.ended = true;
      void closeSession(ctx, (await call.media)?.session);
      refuse(SIGNALLING_ERRORS.general, started.error);
      return;
    }
    const sid = started.value.sid;
    call.sid = sid;
    ctx.outgoing.set(sid, call);
    send(device, 'ringing', { callsid: sid });
    if (call.clientHungUp) await ctx.voice.hangUp(sid);
    // The call may have moved on while its TwiML was first requested: act on where it is now.
    const found = ctx.store.findCall(sid);
    if (found) onOutgoingChange(ctx, found.call, call);
  })().catch((error: unknown) => ctx.log.error(`outgoing call of ${tempSid}: ${String(error)}`));
}

/** The device's call moved: it is answered (the SDK gets the emulator's SDP answer) or ended. */
export function onOutgoingChange(ctx: SignallingContext, record: CallRecord, call: OutgoingCall) {
  if (call.ended) return;
  if (isFinal(record)) {
    call.ended = true;
    ctx.held.release(call.reconnect);
    for (const id of [call.tempSid, record.sid]) ctx.outgoing.delete(id);
    if (!call.clientHungUp) send(call.device, 'hangup', { callsid: record.sid });
    if (!call.attached) void call.media.then((m) => closeSession(ctx, m?.session));
    endMedia(ctx, record.sid);
    return;
  }
  if (record.status === 'in-progress' && !call.answered) {
    call.answered = true;
    void call.media.then((answer) => {
      if (call.ended || !answer) {
        void closeSession(ctx, answer?.session);
        if (!answer && !call.ended) void ctx.voice.hangUp(record.sid);
        return;
      }
      send(call.device, 'answer', { callsid: record.sid, sdp: answer.answerSdp, reconnect: call.reconnect });
      ctx.media?.callMedia.attach(record.sid, 'client', answer.session);
      call.attached = true;
      ctx.attachedRoots.add(record.sid);
    });
  }
}
