import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';

export type CallAnswer = 'accept' | 'reject';

/**
 * A user's answer to a ringing call, sent over the socket (`accept_call` / `reject_call`). The voice
 * domain's one entry point for it: answers false when the company has no such call. The voice issue
 * connects or releases the call here; until calls are recorded, none is found.
 */
export async function answerCall(
  caller: { companyId: string; userId: string },
  callSid: string,
  _answer: CallAnswer,
): Promise<boolean> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.callSid(callSid) }));
  if (Item?.companyId !== caller.companyId) return false;
  // The voice issue acts on the answer here: connect this user's browser to the call, or stop ringing it for them.
  return true;
}
