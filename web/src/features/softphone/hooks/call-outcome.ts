import type { CallStatus } from '@shared/contract/calls';
import type { CallState } from './call-manager';

/** How long the widget says how the last call ended. */
export const OUTCOME_SHOWN_MS = 6_000;
/** Ends the tab heard of recently (realtime `call_ended`), kept for a call whose signalling comes later. */
const REMEMBERED_ENDS = 20;

/** How a call the widget showed ended, when the far end (or Twilio) ended it. */
export interface CallOutcome {
  text: string;
  callSid: string | null;
}

const WORDS: Partial<Record<CallStatus, string>> = { BUSY: 'Busy', NO_ANSWER: 'No answer', FAILED: 'Call failed' };

/** A call's final Call History status in the widget's words. */
export const outcomeWords = (status: CallStatus) => WORDS[status] ?? 'Call ended';

/**
 * What to say once a call closed without the agent ending it: an outbound call that rang and never
 * connected says why (`words` from Twilio's hangup, else its final status, else just that it ended);
 * a call that was connected ended. Nothing for a ringing incoming call that stops (taken elsewhere,
 * caller gone), nor for a call that never rang (it failed here, and its error says so).
 */
export function outcomeOf(before: CallState, status?: CallStatus, words?: string): CallOutcome | null {
  if (before.status === 'active') return { text: 'Call ended', callSid: before.call.callSid };
  if (before.status !== 'dialing' || (!words && !before.call.callSid)) return null;
  return { text: words ?? (status ? outcomeWords(status) : 'Call ended'), callSid: before.call.callSid };
}

/** How a call of the company ended, as the realtime `call_ended` tells it. */
export interface CallEnd {
  status: CallStatus;
  /** Why the server refused the call (FAILED before it rang: docs/security.md: Toll fraud). */
  failureReason?: string;
}

/** The ends of the company's calls that ended lately, by CallSid. */
export function createEndedCalls() {
  const ends = new Map<string, CallEnd>();
  return {
    remember(callSid: string, end: CallEnd) {
      ends.set(callSid, end);
      const oldest = ends.keys().next().value;
      if (ends.size > REMEMBERED_ENDS && oldest) ends.delete(oldest);
    },
    endOf: (callSid: string | null) => (callSid ? ends.get(callSid) : undefined),
    statusOf: (callSid: string | null) => (callSid ? ends.get(callSid)?.status : undefined),
  };
}
