/**
 * The call manager of docs/product.md §4 as a pure state machine: idle, ringing (incoming), dialing (outbound),
 * active. The device's call events, the agent's clicks and the realtime events all go through
 * `transition`, so every rule of who may end a call lives here and nowhere else.
 */

export type CallDirection = 'INCOMING' | 'OUTGOING';

/** What the panels show of a call. */
export interface CallInfo {
  direction: CallDirection;
  /**
   * The call as the realtime events name it: for an incoming call the caller's leg (the browser's own
   * leg has another CallSid); for an outbound call its own CallSid once Twilio has given one.
   */
  callSid: string | null;
  /** The caller (incoming only). */
  from: string | null;
  /** The number called: the company's number (incoming) or the dialled number (outbound). */
  to: string | null;
  contactName: string | null;
  /** The call is recorded from its answer (docs/product.md: Call recording): the panel offers Pause. */
  recorded?: boolean;
}

export type CallState =
  | { status: 'idle' }
  /** `answering`: the agent pressed Answer here; the call is being connected. */
  | { status: 'ringing'; call: CallInfo; since: number; answering: boolean }
  | { status: 'dialing'; call: CallInfo; since: number }
  | { status: 'active'; call: CallInfo; since: number };

export type CallEvent =
  /** The device got an invite. */
  | { type: 'incoming'; call: CallInfo; at: number }
  /** The agent placed a call. */
  | { type: 'dial'; call: CallInfo; at: number }
  /** The outbound call rings at the far end: Twilio has given its CallSid. */
  | { type: 'ringing'; callSid: string | null }
  /** The agent pressed Answer. */
  | { type: 'answer' }
  /** The device's call was answered (incoming: by us; outbound: by the far end). */
  | { type: 'accept'; at: number; callSid?: string | null }
  | { type: 'reject' }
  | { type: 'cancel' }
  | { type: 'disconnect' }
  | { type: 'hangup' }
  | { type: 'failure' }
  /** Realtime: some agent took the call. */
  | { type: 'call_answered'; callSid: string }
  /** Realtime: the call is over. */
  | { type: 'call_ended'; callSid: string };

export const IDLE: CallState = { status: 'idle' };

const sameCall = (state: CallState, callSid: string) => state.status !== 'idle' && state.call.callSid === callSid;

/**
 * The next state. An event that does not apply leaves the state as it is (the same object), so a
 * caller can tell "ignored" from "changed"; an invite while not idle is such a case (Device busy).
 */
export function transition(state: CallState, event: CallEvent): CallState {
  switch (event.type) {
    case 'incoming':
      return state.status === 'idle' ? { status: 'ringing', call: event.call, since: event.at, answering: false } : state;
    case 'dial':
      return state.status === 'idle' ? { status: 'dialing', call: event.call, since: event.at } : state;
    case 'ringing':
      // Known from now on, so the realtime call_ended of an unanswered call ends it here too.
      if (state.status !== 'dialing' || state.call.callSid || !event.callSid) return state;
      return { ...state, call: { ...state.call, callSid: event.callSid } };
    case 'answer':
      return state.status === 'ringing' && !state.answering ? { ...state, answering: true } : state;
    case 'accept':
      if (state.status !== 'ringing' && state.status !== 'dialing') return state;
      return {
        status: 'active',
        call: { ...state.call, callSid: state.call.callSid ?? event.callSid ?? null },
        since: event.at,
      };
    case 'reject':
    case 'cancel':
    case 'disconnect':
    case 'hangup':
    case 'failure':
      return state.status === 'idle' ? state : IDLE;
    case 'call_answered':
      // Answered by someone else: this panel closes. The tab that answered keeps its call.
      return state.status === 'ringing' && !state.answering && sameCall(state, event.callSid) ? IDLE : state;
    case 'call_ended':
      return sameCall(state, event.callSid) ? IDLE : state;
  }
}
