import { isFinal } from '../voice/call-legs';
import { type Device, SIGNALLING_ERRORS, type SignallingContext, send } from './signalling-context';

/**
 * The SDK's signalling reconnect (Call `_onConnected` → PStream `reconnect`): on every `connected`
 * (its socket came back, or it updated its token) each call holding a reconnect token sends `invite`
 * with `reconnect`, its CallSid and its current SDP. Twilio answers `answer` with the token, and the
 * SDK's call goes on (`reconnected` when it had lost its socket). No SDP is sent back: the media never
 * stopped, and the SDK no longer reads one once a call is answered.
 */
export function resume(ctx: SignallingContext, device: Device, token: string, callsid: string) {
  const out = ctx.outgoing.get(callsid);
  const call = ctx.incoming.get(callsid);
  const owner =
    out?.reconnect === token
      ? out.device.token
      : call?.reconnect === token && call.winner
        ? { identity: call.identity, accountSid: call.accountSid }
        : undefined;
  if (!owner) {
    // Ended while the device was away (the far end hung up, or the window passed): it just hears the end.
    const ended = ctx.store.findCall(callsid);
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
  ctx.held.release(token);
  if (out) out.device = device;
  else if (call) call.winner = device;
  send(device, 'answer', { callsid, reconnect: token });
}
