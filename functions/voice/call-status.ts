import { getActiveUser } from '../auth/accounts';
import { publish } from '../realtime/publish';
import type { ProviderRecord } from '../settings/records';
import { answeredLeg, type CallFact, type CallRecord, userOfLeg, withFact } from './call-records';
import { callAudience } from './call-visibility';
import { changeCall, findCall } from './call-writes';
import { joinConference } from './conference';
import { hangUp, NOBODY_AVAILABLE, sayAndHangUp } from './twiml';
import { takeVoicemail } from './voicemail-twiml';

/**
 * Twilio's reports about a call — status callbacks of the call and of its Dial legs, and the Dial's
 * action — recorded as facts (call-records.ts), then told to the company: `call_answered` the first
 * time an agent's leg is picked up, `call_ended` when the call is over, each to the members who see the
 * call. Calls of other companies and
 * unknown calls change nothing.
 */

export interface CallStatusReport {
  callSid: string;
  parentCallSid?: string;
  callStatus: string;
  callDuration?: number;
  to?: string;
}

/** Answers the call before and after the report (undefined: not this company's), for what follows an answer. */
export async function recordCallStatus(companyId: string, report: CallStatusReport) {
  const status = report.callStatus.toLowerCase();
  const fact: CallFact = report.parentCallSid
    ? { kind: 'leg', legSid: report.callSid, party: report.to ?? '', status, durationSeconds: report.callDuration }
    : { kind: 'call', status, durationSeconds: report.callDuration };
  return applyFact(companyId, report.parentCallSid ?? report.callSid, fact);
}

/**
 * The Dial's end: the end of the call when someone took it; else (nobody answered, everyone declined,
 * the ring timed out) the caller may leave a voicemail. An unknown call of the company gets an apology.
 */
export async function recordDialResult(
  provider: Pick<ProviderRecord, 'companyId' | 'webhookBaseUrl' | 'webhookId'>,
  result: { callSid: string; dialCallStatus: string; dialCallDuration: number },
): Promise<string> {
  const status = result.dialCallStatus.toLowerCase();
  // The answered leg left the Dial for the call's conference: the customer follows it there, and the
  // call goes on (its end comes from the call's own status callback).
  const moving = status === 'completed' ? await findCall(provider.companyId, result.callSid) : undefined;
  if (moving?.conference && !moving.endedAt) return joinConference(moving.conference.name);
  const call = (
    await applyFact(provider.companyId, result.callSid, {
      kind: 'dial',
      status,
      durationSeconds: result.dialCallDuration,
    })
  )?.after;
  if (status === 'completed' || call?.direction === 'OUTBOUND') return hangUp();
  return call?.direction === 'INBOUND' && !answeredLeg(call) ? takeVoicemail(provider) : sayAndHangUp(NOBODY_AVAILABLE);
}

async function applyFact(companyId: string, callSid: string, fact: CallFact) {
  const changed = await changeCall(companyId, callSid, (call) => withAnswerer(companyId, withFact(call, fact)));
  if (!changed) return undefined;
  await announce(companyId, changed.before, changed.after);
  return changed;
}

/** An inbound call's agent: the user whose browser leg was picked up, with the name they had then. */
async function withAnswerer(companyId: string, call: CallRecord): Promise<CallRecord> {
  if (call.direction !== 'INBOUND' || call.answeredBy) return call;
  const leg = answeredLeg(call);
  const userId = leg ? userOfLeg(leg) : undefined;
  if (!userId) return call;
  const user = await getActiveUser(companyId, userId);
  return { ...call, answeredBy: { id: userId, name: user?.name ?? '' } };
}

/** Told only to the members who see the call (docs/product.md: Who sees what), read once for both events. */
async function announce(companyId: string, before: CallRecord, after: CallRecord): Promise<void> {
  const callSid = after.providerCallId;
  const answered = after.direction === 'INBOUND' && !before.answeredBy && after.answeredBy;
  const ended = !before.endedAt && after.endedAt;
  if (!answered && !ended) return;
  const audience = { userIds: await callAudience(after) };
  if (answered && after.answeredBy) {
    await publish(companyId, { type: 'call_answered', data: { callSid, answeredBy: after.answeredBy.id } }, audience);
  }
  if (ended) await publish(companyId, { type: 'call_ended', data: { callSid, callStatus: after.callStatus } }, audience);
}
