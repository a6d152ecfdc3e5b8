import type { Call } from '../../shared/contract/calls';
import { getContact } from '../contacts/contacts';
import { conflict, forbidden, notFound } from '../lib/app-error';
import { publish } from '../realtime/publish';
import { clientFor, fromTwilio } from '../settings/twilio-account';
import { companyProvider } from '../settings/twilio-content';
import type { LoadedViewer } from '../team/visibility';
import { type CallRecord, secondsBetween, toCall } from './call-records';
import { callAudience, viewerSeesCall } from './call-visibility';
import { changeCall, findCall } from './call-writes';
import { customerCallSidOf } from './conference';

const CALL_SID = /^CA[0-9a-f]{32}$/;

/**
 * Puts the customer of a call under way on hold, or brings them back (docs/product.md: Hold): their
 * conference participant is held with Twilio's default hold music, and the call keeps when the hold
 * began and the seconds of the holds before. Any member on the call may; another company's call, or
 * one the member does not see, is not found.
 */
export async function holdCall(viewer: LoadedViewer & { companyId: string }, callSid: string, held: boolean): Promise<Call> {
  const { companyId } = viewer;
  const call = CALL_SID.test(callSid) ? await findCall(companyId, callSid) : undefined;
  if (!call || !viewerSeesCall(viewer, call)) throw notFound('Call not found');
  if (!onCall(call, viewer.userId)) throw forbidden('Only someone on the call can put it on hold.');
  const customer = customerCallSidOf(call);
  if (call.callStatus !== 'IN_PROGRESS' || !call.conference || !customer)
    throw conflict('This call is not in progress, so it cannot be put on hold.');
  if (Boolean(call.heldSince) !== held) {
    try {
      const provider = await companyProvider(companyId);
      if (!provider) throw conflict('This call is not in progress, so it cannot be put on hold.');
      const client = await clientFor(provider);
      const conferenceSid = call.conference.sid ?? (await client.findConference(call.conference.name))?.sid;
      if (!conferenceSid) throw conflict('This call is not in progress, so it cannot be put on hold.');
      await client.holdParticipant(conferenceSid, customer, held);
      call.conference = { ...call.conference, sid: conferenceSid, customerCallSid: customer };
    } catch (error) {
      fromTwilio(error, held ? 'put the call on hold' : 'take the call off hold');
    }
  }
  const changed = await changeCall(companyId, callSid, (c) => withHold(c, held, new Date().toISOString(), call.conference));
  if (!changed) throw notFound('Call not found');
  const { before, after } = changed;
  if (Boolean(before.heldSince) !== Boolean(after.heldSince)) {
    await publish(
      companyId,
      {
        type: 'call_held',
        data: {
          callSid,
          held: Boolean(after.heldSince),
          heldSince: after.heldSince ?? null,
          holdSeconds: after.holdSeconds ?? 0,
        },
      },
      { userIds: await callAudience(after) },
    );
  }
  const contact = after.contactId ? await getContact(companyId, after.contactId) : undefined;
  return toCall(after, contact);
}

/** The hold begun or ended now; the seconds of an ended hold added up. */
function withHold(call: CallRecord, held: boolean, now: string, conference: CallRecord['conference']): CallRecord {
  const withConference = conference ? { ...call, conference } : call;
  if (call.endedAt || Boolean(call.heldSince) === held) return withConference;
  if (held) return { ...withConference, heldSince: now };
  return {
    ...withConference,
    heldSince: null,
    holdSeconds: (call.holdSeconds ?? 0) + secondsBetween(call.heldSince ?? now, now),
  };
}

/** Whether the user is on the call: they took it or placed it, or have a leg of it. */
const onCall = (call: CallRecord, userId: string) =>
  call.answeredBy?.id === userId || (call.agentLegs ?? []).some((leg) => leg.userId === userId && !leg.endedAt);
