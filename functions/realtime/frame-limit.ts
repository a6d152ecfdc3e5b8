import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SOCKET_FLOOD_ALLOWANCE, SOCKET_FRAME_BURST, SOCKET_FRAMES_PER_SECOND } from '../../shared/constants';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import type { NewConnection } from './connections';

/**
 * The per-socket limit on client frames: a token bucket of SOCKET_FRAME_BURST refilled at
 * SOCKET_FRAMES_PER_SECOND, kept on the socket's owner item (the one `$default` finds by connection id).
 * It is stored as GCRA does, as one time instead of a count and a refill time: `frameTat`, when the
 * bucket would be full again. A frame passes while that time is at most burst − 1 intervals ahead of
 * now, and moves it one interval on. Every step is one conditional update, so the concurrent `$default`
 * invocations of a burst cannot spend a token twice.
 *
 * Refused frames spend a second bucket, `floodTat` (SOCKET_FLOOD_ALLOWANCE, one back a second): a socket
 * that empties it keeps flooding after being told, and is closed.
 */
const FRAME = { attribute: 'frameTat', intervalMs: 1000 / SOCKET_FRAMES_PER_SECOND, burst: SOCKET_FRAME_BURST };
const FLOOD = { attribute: 'floodTat', intervalMs: 1000, burst: SOCKET_FLOOD_ALLOWANCE };
type Bucket = typeof FRAME;

export type FrameVerdict =
  | { verdict: 'accepted'; connection: NewConnection }
  /** Refused; a frame passes again in `retryAfterMs`. */
  | { verdict: 'limited'; retryAfterMs: number }
  /** The socket keeps flooding: `first` for the one frame that crossed the line (it tells and closes). */
  | { verdict: 'closing'; first: boolean };

/**
 * Spends a token of the socket's bucket; undefined when the registry does not know the socket. Each
 * step reads the clock afresh: a burst's writes to one item queue up, and a time taken before the
 * queue would judge a bucket others have moved on since (it closed sockets after two refusals).
 */
export async function takeFrame(connectionId: string): Promise<FrameVerdict | undefined> {
  const frame = await spend(connectionId, FRAME);
  if (!frame) return undefined;
  if (frame.passed) {
    const item = frame.item;
    if (Number(item.expiresAt) <= epochSeconds()) return undefined;
    const connection = {
      connectionId,
      companyId: String(item.companyId),
      userId: String(item.userId),
      name: String(item.name),
      sessionId: String(item.sessionId),
      sessionExpiresAt: Number(item.sessionExpiresAt),
    };
    return { verdict: 'accepted', connection };
  }
  // What the refusal showed of the item decides the rest, so a flood costs about one write a frame.
  if (frame.old.closingForFlooding) return { verdict: 'closing', first: false };
  if (aheadMs(frame.old, FLOOD, Date.now()) > toleranceMs(FLOOD))
    return { verdict: 'closing', first: await markClosing(connectionId) };
  const flood = await spend(connectionId, FLOOD);
  if (!flood) return undefined;
  if (flood.passed) return { verdict: 'limited', retryAfterMs: aheadMs(frame.old, FRAME, Date.now()) - toleranceMs(FRAME) };
  return { verdict: 'closing', first: await markClosing(connectionId) };
}

const toleranceMs = (bucket: Bucket) => (bucket.burst - 1) * bucket.intervalMs;

/** An item as a refused condition returns it (DynamoDB's attribute values). */
type OldItem = Record<string, { N?: string; BOOL?: boolean } | undefined> & { closingForFlooding?: unknown };

/** How far the bucket's time is ahead of now (0 or less: the bucket is full). */
const aheadMs = (old: OldItem, bucket: Bucket, now: number) => Number(old[bucket.attribute]?.N ?? 0) - now;

type Spent = { passed: true; item: Record<string, unknown> } | { passed: false; old: OldItem };

/** A refused conditional update: the item as it was, or undefined when there is none. */
function refusal(error: unknown): Spent | undefined {
  if (!(error instanceof ConditionalCheckFailedException)) throw error;
  return error.Item ? { passed: false, old: error.Item as OldItem } : undefined;
}

async function spend(connectionId: string, bucket: Bucket): Promise<Spent | undefined> {
  const update = (UpdateExpression: string, ConditionExpression: string, values: Record<string, number>) =>
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.connectionOwner(connectionId),
        UpdateExpression,
        ConditionExpression: `attribute_exists(PK) AND (${ConditionExpression})`,
        ExpressionAttributeNames: { '#tat': bucket.attribute },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  // A full bucket (no frame for a while): counting starts from now. The usual case, one write.
  let first: Spent | undefined;
  let now = Date.now();
  try {
    const { Attributes } = await update('SET #tat = :next', 'attribute_not_exists(#tat) OR #tat <= :now', {
      ':next': now + bucket.intervalMs,
      ':now': now,
    });
    return { passed: true, item: Attributes ?? {} };
  } catch (error) {
    first = refusal(error);
  }
  // Already beyond the burst (the time only grows): refused without a second write.
  now = Date.now();
  if (!first || first.passed || aheadMs(first.old, bucket, now) > toleranceMs(bucket)) return first;
  // Within a burst: one interval further, as long as that stays within it.
  try {
    const { Attributes } = await update('SET #tat = #tat + :interval', '#tat <= :latest', {
      ':interval': bucket.intervalMs,
      ':latest': now + toleranceMs(bucket),
    });
    return { passed: true, item: Attributes ?? {} };
  } catch (error) {
    return refusal(error);
  }
}

/** True for the one frame that marks the socket as being closed; the others of the flood say nothing. */
async function markClosing(connectionId: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.connectionOwner(connectionId),
        UpdateExpression: 'SET closingForFlooding = :true',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(closingForFlooding)',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
