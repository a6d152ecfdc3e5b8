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

/** The final statuses of the company's calls that ended lately, by CallSid. */
export function createEndedCalls() {
  const statuses = new Map<string, CallStatus>();
  return {
    remember(callSid: string, status: CallStatus) {
      statuses.set(callSid, status);
      const oldest = statuses.keys().next().value;
      if (statuses.size > REMEMBERED_ENDS && oldest) statuses.delete(oldest);
    },
    statusOf: (callSid: string | null) => (callSid ? statuses.get(callSid) : undefined),
  };
}
