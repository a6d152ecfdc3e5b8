import { logError } from '../lib/log';
import { clientFor } from '../settings/twilio-account';
import { companyProvider } from '../settings/twilio-content';
import type { CallRecord } from './call-records';
import { changeCall } from './call-writes';
import { takeVoicemail } from './voicemail-twiml';

export type CallAnswer = 'accept' | 'reject';

/** NOT_FOUND: no such call in the company; NOT_RINGING: it is not (or no longer) ringing for this user. */
export type CallAnswerResult = 'OK' | 'NOT_FOUND' | 'NOT_RINGING';

const ringsFor = (call: CallRecord, userId: string) =>
  call.direction === 'INBOUND' &&
  call.callStatus === 'RINGING' &&
  call.rungUserIds.includes(userId) &&
  !call.declinedUserIds.includes(userId) &&
  !call.acceptedUserIds.includes(userId);

/**
 * A user's answer to a ringing call, sent over the socket (`accept_call` / `reject_call`): valid only
 * for a call of the company ringing for this user, and recorded on the call. The browser's Voice SDK
 * connects the call itself; Twilio's leg callbacks say who was connected. When the last agent still
 * being rung rejects, the caller goes to voicemail now rather than after the ring timeout.
 */
export async function answerCall(
  caller: { companyId: string; userId: string },
  callSid: string,
  answer: CallAnswer,
): Promise<CallAnswerResult> {
  const { companyId, userId } = caller;
  let ringing = false;
  const changed = await changeCall(companyId, callSid, (call) => {
    ringing = ringsFor(call, userId);
    if (!ringing) return call;
    return answer === 'accept'
      ? { ...call, acceptedUserIds: [...call.acceptedUserIds, userId] }
      : { ...call, declinedUserIds: [...call.declinedUserIds, userId] };
  });
  if (!changed) return 'NOT_FOUND';
  if (!ringing) return 'NOT_RINGING';
  const { before, after } = changed;
  const everyoneDeclined = (call: CallRecord) => call.rungUserIds.every((id) => call.declinedUserIds.includes(id));
  if (answer === 'reject' && everyoneDeclined(after) && !everyoneDeclined(before)) await stopRinging(companyId, callSid);
  return 'OK';
}

/**
 * Tells Twilio to stop the ring-all: the caller may leave a voicemail, then the call ends
 * (recorded NO_ANSWER by its callbacks).
 */
async function stopRinging(companyId: string, callSid: string): Promise<void> {
  try {
    const provider = await companyProvider(companyId);
    if (!provider) return;
    const client = await clientFor(provider);
    await client.redirectCall(callSid, await takeVoicemail(provider));
  } catch (error) {
    // The ring times out on its own: the rejection is recorded whatever Twilio answered.
    logError({ route: 'reject_call', companyId, callSid }, error);
  }
}
