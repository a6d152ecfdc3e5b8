import { logError } from '../lib/log';
import { clientFor } from '../settings/twilio-account';
import { companyProvider } from '../settings/twilio-content';
import type { CallRecord } from './call-records';
import { changeCall } from './call-writes';
import { conferenceNameOf, joinConference } from './conference';
import { hangUp } from './twiml';

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

/**
 * The call just ended (its answered agent or its customer hung up): every party of its conference is
 * hung up too. Leaving the conference ends it for the others (`endConferenceOnExit`), but a party who
 * hung up while their leg was being moved never joined it, and the other would wait there alone.
 * A party already gone refuses the redirect, which is what should happen.
 */
export async function hangUpConferenceParties(before: CallRecord | undefined, after: CallRecord | undefined) {
  if (!before || !after || before.endedAt || !after.endedAt || !after.conference) return;
  const parties = new Set([
    after.providerCallId,
    ...Object.entries(after.legs)
      .filter(([, leg]) => leg.status === 'in-progress' || leg.status === 'completed')
      .map(([sid]) => sid),
  ]);
  try {
    const provider = await companyProvider(after.companyId);
    if (!provider) return;
    const client = await clientFor(provider);
    await Promise.all([...parties].map((sid) => client.redirectCall(sid, hangUp()).catch(() => undefined)));
  } catch (error) {
    logError({ route: 'call-status', companyId: after.companyId, callSid: after.providerCallId }, error);
  }
}
