import VoiceResponse from 'twilio/lib/twiml/VoiceResponse';
import type { CallRecord } from './call-records';

/**
 * Calls in a conference (docs/architecture.md: Calls in a conference). A call rings as before (ring-all
 * `<Dial><Client>`s, or the dialled number); once a leg is answered, that leg is redirected into a
 * conference named for the call and the customer's call follows through the Dial's action, so the
 * customer's leg can be held, and later legs added and removed, while the customer stays connected.
 */

/** The conference a call runs in: named for the call, so its name needs no lookup. */
export const conferenceNameOf = (call: Pick<CallRecord, 'id'>) => `call-${call.id}`;

/**
 * The TwiML that puts a party in the call's conference: no beep, the conference starts with whoever
 * comes first, and either party leaving ends it, as hanging up ended the bridged call before.
 */
export function joinConference(name: string): string {
  const response = new VoiceResponse();
  response.dial().conference({ beep: 'false', startConferenceOnEnter: true, endConferenceOnExit: true }, name);
  return response.toString();
}

/** The customer's call in the conference: the caller's own call (inbound), the dialled leg (outbound). */
export function customerCallSidOf(call: CallRecord): string | undefined {
  if (call.direction === 'INBOUND') return call.providerCallId;
  return Object.entries(call.legs).find(([, leg]) => leg.status === 'in-progress')?.[0];
}
