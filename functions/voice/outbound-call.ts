import { getActiveUser } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { defaultCountry } from '../company/settings';
import { toE164 } from '../contacts/contacts';
import type { WebhookProvider } from '../lib/define-webhook';
import { signedWebhookUrl } from '../settings/webhook-urls';
import type { CallRecord } from './call-records';
import { createCall } from './call-writes';
import { listCallerIds } from './caller-ids';
import { userIdOfClient } from './client-identity';
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

/**
 * An agent's browser calls out (the TwiML application's Voice URL). The call is refused — an
 * apology and the end, recorded FAILED — when the caller ID is not one of the agent's own (a user
 * must not call as another inbox's or company's number) or the number dialled is not a valid number
 * (read for the company's default country). Otherwise the number rings with that caller ID. Recorded
 * once per CallSid, with the agent as the one who placed it.
 */
export async function placeCall(provider: WebhookProvider, call: OutboundCall): Promise<string> {
  const { companyId } = provider;
  const userId = userIdOfClient(call.caller);
  const user = userId ? await getActiveUser(companyId, userId) : undefined;
  // Not a browser of this company's users: nothing to record against.
  if (!user) return sayAndHangUp(CALL_REFUSED);
  const [callerIds, country, from] = await Promise.all([
    listCallerIds(companyId, user.id),
    defaultCountry(companyId),
    toE164(call.from),
  ]);
  const callerId = callerIds.find((c) => c.phoneNumber === from);
  const { dialledNumber } = await import('./phone-country');
  const to = dialledNumber(call.to, country);
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
    outcome: callerId && to ? null : 'FAILED',
    twilioStatus: 'ringing',
    twilioDurationSeconds: null,
    legs: {},
    dial: null,
    callStatus: 'RINGING',
    durationSeconds: 0,
    endedAt: null,
  };
  const stored = (await createCall(draft))?.call;
  // Another company's CallSid is refused like a caller ID that is not the agent's.
  if (!stored || stored.outcome || !callerId || !to) return sayAndHangUp(CALL_REFUSED);
  return dialNumber(to, callerId.phoneNumber, signedWebhookUrl(provider, 'voiceStatus'));
}
