import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { logError } from '../lib/log';
import { keys } from '../lib/table';
import type { ProviderRecord } from '../settings/records';
import { clientFor } from '../settings/twilio-account';
import type { CallRecord } from './call-records';
import { changeCall } from './call-writes';
import { NOBODY_AVAILABLE, sayAndHangUp } from './twiml';

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
 * being rung rejects, the caller hears that nobody is available now rather than after the ring timeout.
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

/** Tells Twilio to stop the ring-all: the caller hears the apology and the call ends (recorded NO_ANSWER by its callbacks). */
async function stopRinging(companyId: string, callSid: string): Promise<void> {
  try {
    const TableName = tableName();
    const { Item: type } = await db.send(new GetCommand({ TableName, Key: keys.providerType(companyId, 'TWILIO') }));
    if (!type) return;
    const { Item } = await db.send(new GetCommand({ TableName, Key: keys.provider(companyId, type.providerId as string) }));
    if (!Item) return;
    const client = await clientFor(Item as ProviderRecord);
    await client.redirectCall(callSid, sayAndHangUp(NOBODY_AVAILABLE));
  } catch (error) {
    // The ring times out on its own: the rejection is recorded whatever Twilio answered.
    logError({ route: 'reject_call', companyId, callSid }, error);
  }
}
