import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { OUTBOUND_CALL_STALE_SECONDS, OUTBOUND_RING_STALE_SECONDS } from '../../shared/constants';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys, TTL_ATTRIBUTE } from '../lib/table';
import type { CallRecord } from './call-records';
import { findCall } from './call-writes';

/**
 * How many outbound calls (issue 21, README Security "Toll fraud"): one live call per user, and a
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

/** The start times (ms) of the company's outbound calls in the last minute, and the item's version. */
interface RateItem {
  startedAt: number[];
  version: number;
}

/**
 * Counts an outbound call against the company's calls a minute: a sliding minute, so no burst fits
 * across a window's edge. Answers 0 when the call may go ahead, else the seconds until it may.
 */
export async function takeOutboundSlot(companyId: string, perMinute: number, nowMs = Date.now()): Promise<number> {
  const Key = keys.outboundCallRate(companyId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
    const item = Item as RateItem | undefined;
    const recent = (item?.startedAt ?? []).filter((at) => at > nowMs - RATE_WINDOW_MS);
    if (recent.length >= perMinute) return Math.max(1, Math.ceil((Math.min(...recent) + RATE_WINDOW_MS - nowMs) / 1000));
    try {
      await db.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...Key,
            entity: 'OUTBOUND_CALL_RATE',
            startedAt: [...recent, nowMs],
            version: (item?.version ?? 0) + 1,
            [TTL_ATTRIBUTE]: epochSeconds() + 2 * (RATE_WINDOW_MS / 1000),
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
