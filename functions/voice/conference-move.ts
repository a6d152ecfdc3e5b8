import { logError } from '../lib/log';
import { clientFor } from '../settings/twilio-account';
import { companyProvider } from '../settings/twilio-content';
import type { CallRecord } from './call-records';
import { changeCall } from './call-writes';
import { conferenceNameOf, joinConference } from './conference';

/**
 * The call's answered leg moves into the conference: marked first (so the Dial's action, which Twilio
 * requests as the leg leaves the bridge, finds it), then redirected. A redirect Twilio refuses leaves
 * the call bridged as before: it cannot be held, and ends as it always did.
 */
export async function moveIntoConference(call: CallRecord, legSid: string): Promise<void> {
  const name = conferenceNameOf(call);
  const marked = await changeCall(call.companyId, call.providerCallId, (c) =>
    c.conference || c.endedAt ? c : { ...c, conference: { name, sid: null, customerCallSid: null } },
  );
  if (!marked || marked.before.conference || !marked.after.conference) return;
  try {
    const provider = await companyProvider(call.companyId);
    if (!provider) throw new Error('The company has no Twilio account any more');
    const client = await clientFor(provider);
    await client.redirectCall(legSid, joinConference(name));
  } catch (error) {
    logError({ route: 'call-status', companyId: call.companyId, callSid: call.providerCallId, legSid }, error);
    await changeCall(call.companyId, call.providerCallId, (c) => ({ ...c, conference: null }));
  }
}

/** A status callback's leg picked up: the call moves into its conference (docs/architecture.md: Calls in a conference). */
export async function moveAnsweredLeg(
  call: CallRecord | undefined,
  report: { callSid: string; parentCallSid?: string; callStatus: string },
) {
  if (!call || !report.parentCallSid || report.callStatus.toLowerCase() !== 'in-progress' || call.conference || call.endedAt)
    return;
  await moveIntoConference(call, report.callSid);
}
