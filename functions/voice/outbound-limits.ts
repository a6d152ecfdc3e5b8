import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { OUTBOUND_CALL_STALE_SECONDS, OUTBOUND_RING_STALE_SECONDS } from '../../shared/constants';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import type { CallRecord } from './call-records';
import { findCall } from './call-writes';

/**
 * How many outbound calls (docs/security.md: Toll fraud): one live call per user, and a
 * company-wide number a minute. Both are decided by conditional writes, so calls placed at the same
 * moment cannot all slip past a check they each read before the others wrote.
 */

const ATTEMPTS = 10;
const RATE_WINDOW_MS = 60_000;

/** The user's claim on their one live outbound call. */
interface LiveCallItem {
  callSid: string;
  startedAt: string;
}

/**
 * Whether the call a claim names still counts: ringing or talking, and not older than such a call can
 * be (a status callback that never came must not block the agent for ever). A claim whose call is not
 * stored yet is a call being placed at this moment.
 */
export function stillLive(claim: LiveCallItem, call: Pick<CallRecord, 'callStatus'> | undefined, now: Date): boolean {
  const ageSeconds = (now.getTime() - Date.parse(claim.startedAt)) / 1000;
  if (!call || call.callStatus === 'RINGING') return ageSeconds < OUTBOUND_RING_STALE_SECONDS;
  if (call.callStatus === 'IN_PROGRESS') return ageSeconds < OUTBOUND_CALL_STALE_SECONDS;
  return false;
}

function putClaim(companyId: string, userId: string, claim: LiveCallItem, condition: { expression: string; values: object }) {
  return db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.liveCall(companyId, userId), entity: 'LIVE_CALL', ...claim },
      ConditionExpression: condition.expression,
      ExpressionAttributeValues: condition.values as Record<string, unknown>,
    }),
  );
}

/**
 * Makes `callSid` the user's live outbound call. False when another call of theirs still rings or
 * talks. A claim on a call that ended (or went stale) is taken over only if nobody took it first.
 */
export async function claimLiveCall(companyId: string, userId: string, callSid: string, now = new Date()): Promise<boolean> {
  const claim = { callSid, startedAt: now.toISOString() };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      await putClaim(companyId, userId, claim, {
        expression: 'attribute_not_exists(PK) OR callSid = :callSid',
        values: { ':callSid': callSid },
      });
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName(), Key: keys.liveCall(companyId, userId), ConsistentRead: true }),
    );
    const held = Item as LiveCallItem | undefined;
    if (!held) continue;
    if (stillLive(held, await findCall(companyId, held.callSid), now)) return false;
    try {
      await putClaim(companyId, userId, claim, {
        expression: 'callSid = :held AND startedAt = :heldAt',
        values: { ':held': held.callSid, ':heldAt': held.startedAt },
      });
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  // Others kept changing the claim: they are calls of this user placed at this moment.
  return false;
}

/** The company's outbound calls of the last minute: each CallSid and when it was counted (ms). */
interface RateItem {
  calls: { callSid: string; at: number }[];
  version: number;
}

/**
 * Counts an outbound call against the company's calls a minute: a sliding minute, so no burst fits
 * across a window's edge, and each CallSid once (Twilio may ask twice for the same call). Answers 0
 * when the call may go ahead, else the seconds until it may. One small item per company, rewritten
 * by versioned writes; it never holds more than the limit's calls.
 */
export async function takeOutboundSlot(
  companyId: string,
  callSid: string,
  perMinute: number,
  nowMs = Date.now(),
): Promise<number> {
  const Key = keys.outboundCallRate(companyId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
    const item = Item as RateItem | undefined;
    const recent = (item?.calls ?? []).filter((call) => call.at > nowMs - RATE_WINDOW_MS);
    if (recent.some((call) => call.callSid === callSid)) return 0;
    if (recent.length >= perMinute) {
      const oldest = Math.min(...recent.map((call) => call.at));
      return Math.max(1, Math.ceil((oldest + RATE_WINDOW_MS - nowMs) / 1000));
    }
    try {
      await db.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...Key,
            entity: 'OUTBOUND_CALL_RATE',
            calls: [...recent, { callSid, at: nowMs }],
            version: (item?.version ?? 0) + 1,
          },
          ...(item
            ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': item.version } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        }),
      );
      return 0;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  // So many calls at once that the count kept changing: refuse rather than let them through uncounted.
  return 1;
}
