import { type CallerId, type CallingSettings, callStatusWebhook, dialResultWebhook } from '../../shared/contract/voice';
import { getActiveUser } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { callingSettings } from '../company/calling-settings';
import { defaultCountry } from '../company/settings';
import { toE164 } from '../contacts/contacts';
import type { WebhookProvider } from '../lib/define-webhook';
import { publish } from '../realtime/publish';
import { signedWebhookUrl } from '../settings/webhook-urls';
import type { CallRecord } from './call-records';
import { callAudience } from './call-visibility';
import { callSidOwner, createCall, findCall } from './call-writes';
import { listCallerIds } from './caller-ids';
import { userIdOfClient } from './client-identity';
import { claimLiveCall, takeOutboundSlot } from './outbound-limits';
import { CALL_REFUSED, dialNumber, sayAndHangUp } from './twiml';

export interface OutboundCall {
  callSid: string;
  /** `client:user_…`: who is calling (Twilio sets it; a client's params cannot replace it). */
  caller: string;
  /** The caller ID the agent chose. */
  from: string;
  /** The number dialled, as typed or in international format. */
  to: string;
}

/** What the caller hears when a call is refused: the refusal, then why. */
const refusal = (reason: string | null | undefined) => sayAndHangUp(reason ? `${CALL_REFUSED} ${reason}` : CALL_REFUSED);

/**
 * An agent's browser calls out (the TwiML application's Voice URL). The call is refused — the caller
 * hears why, and it is recorded FAILED with the reason — when the caller ID is not one of the agent's
 * own (a user must not call as another inbox's or company's number), the number dialled is not a
 * valid number (read for the company's default country), or toll fraud is feared (docs/security.md:
 * Toll fraud): a costly or satellite number, a country the company does not call, a second live call
 * of the agent's, or more calls this minute than the company allows. Otherwise the number rings with
 * that caller ID. Recorded once per CallSid, with the agent as the one who placed it.
 */
export async function placeCall(provider: WebhookProvider, call: OutboundCall): Promise<string> {
  const { companyId } = provider;
  const userId = userIdOfClient(call.caller);
  const user = userId ? await getActiveUser(companyId, userId) : undefined;
  // Not a browser of this company's users: nothing to record against.
  if (!user) return sayAndHangUp(CALL_REFUSED);
  const statusCallback = signedWebhookUrl(provider, callStatusWebhook);
  const dialResult = signedWebhookUrl(provider, dialResultWebhook);
  // Twilio asked again (a timeout, a retry): the first answer stands, and nothing is counted twice.
  const link = await callSidOwner(call.callSid);
  // Another company's CallSid is refused like a caller ID that is not the agent's, touching nothing.
  if (link && link !== companyId) return sayAndHangUp(CALL_REFUSED);
  const replayed = link ? await findCall(companyId, call.callSid) : undefined;
  if (replayed) {
    if (replayed.outcome) return refusal(replayed.failureReason);
    return dialNumber(replayed.contactPhoneNumber, replayed.channelPhoneNumber, statusCallback, dialResult);
  }
  const [callerIds, country, from, calling] = await Promise.all([
    listCallerIds(companyId, user.id),
    defaultCountry(companyId),
    toE164(call.from),
    callingSettings(companyId),
  ]);
  const callerId = callerIds.find((c) => c.phoneNumber === from);
  const { dialledNumber } = await import('./phone-country');
  const to = dialledNumber(call.to, country);
  const failureReason = await refusalOf({ companyId, userId: user.id, callSid: call.callSid, callerId, to, calling });
  const createdAt = new Date().toISOString();
  const draft: Omit<CallRecord, 'contactId' | 'version'> = {
    id: newId(),
    companyId,
    direction: 'OUTBOUND',
    providerCallId: call.callSid,
    channelId: callerId?.channelId ?? '',
    channelPhoneNumber: callerId?.phoneNumber ?? call.from,
    contactPhoneNumber: to ?? call.to,
    createdAt,
    rungUserIds: [user.id],
    declinedUserIds: [],
    acceptedUserIds: [],
    answeredBy: { id: user.id, name: user.name },
    outcome: failureReason ? 'FAILED' : null,
    failureReason,
    twilioStatus: 'ringing',
    twilioDurationSeconds: null,
    legs: {},
    dial: null,
    callStatus: 'RINGING',
    durationSeconds: 0,
    endedAt: null,
  };
  const created = await createCall(draft);
  const stored = created?.call;
  // Another company's CallSid is refused like a caller ID that is not the agent's.
  if (!stored || stored.outcome || !callerId || !to) {
    // Decided here, so no status callback will end it: the agent's widget hears why now (docs/product.md §2.9 Outcome).
    if (created?.created && stored?.outcome) await announceRefusal(stored);
    return refusal(stored?.failureReason);
  }
  return dialNumber(to, callerId.phoneNumber, statusCallback, dialResult);
}

/** To the members who see the call: its caller, and whoever sees its caller ID's channel (docs/product.md: Who sees what). */
async function announceRefusal(call: CallRecord): Promise<void> {
  await publish(
    call.companyId,
    {
      type: 'call_ended',
      data: {
        callSid: call.providerCallId,
        callStatus: call.callStatus,
        ...(call.failureReason ? { failureReason: call.failureReason } : {}),
      },
    },
    { userIds: await callAudience(call) },
  );
}

/**
 * Why the call may not go ahead, or null. The checks that write (the live call, the rate) come last,
 * so a call refused for its number takes neither the agent's one live call nor a place in the minute.
 */
async function refusalOf(call: {
  companyId: string;
  userId: string;
  callSid: string;
  callerId: CallerId | undefined;
  to: string | undefined;
  calling: CallingSettings;
}): Promise<string | null> {
  if (!call.callerId) return 'The caller ID is not one of your numbers.';
  if (!call.to) return 'The number is not a valid phone number.';
  const { refusedDestination } = await import('./destination-policy');
  const destination = refusedDestination(call.to, call.calling.allowedCountries);
  if (destination) return destination;
  if (!(await claimLiveCall(call.companyId, call.userId, call.callSid))) {
    return 'You are already on a call. End it before you place another.';
  }
  const { outboundCallsPerMinute: perMinute } = call.calling;
  const waitSeconds = await takeOutboundSlot(call.companyId, call.callSid, perMinute);
  if (waitSeconds > 0) {
    return `Your company allows ${perMinute} ${perMinute === 1 ? 'call' : 'calls'} a minute. Try again in ${waitSeconds} ${waitSeconds === 1 ? 'second' : 'seconds'}.`;
  }
  return null;
}
