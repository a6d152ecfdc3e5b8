import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tooManyRequests } from './app-error';
import { tableName } from './config';
import { db } from './db';
import { epochSeconds, keys, TTL_ATTRIBUTE } from './table';

/** A fixed-window counter per (bucket, subject), kept in the table and expired by TTL. */
export interface Limit {
  bucket: string;
  limit: number;
  windowSeconds: number;
  message: (minutesLeft: number) => string;
  /** Shortened on a test stack by LOCAL_THROTTLE_WINDOW_SCALE (windowSecondsOf): the sign-in and session limits. */
  scaledOnTestStacks?: boolean;
}

/**
 * The limit's window, or for the sign-in and session limits a shorter one on a test stack
 * (LOCAL_THROTTLE_WINDOW_SCALE, a fraction below 1 that only test stacks set, never AWS), so a browser
 * test waiting out a refresh throttle waits seconds, not a minute. It can only shorten, and never below
 * a few seconds, for a burst to land in one window. Messages follow the window they are about.
 */
const MIN_LOCAL_WINDOW_SECONDS = 5;
export function windowSecondsOf(limit: Pick<Limit, 'windowSeconds' | 'scaledOnTestStacks'>): number {
  const scale = Number(process.env.LOCAL_THROTTLE_WINDOW_SCALE);
  if (!limit.scaledOnTestStacks || !(scale > 0 && scale < 1)) return limit.windowSeconds;
  return Math.min(limit.windowSeconds, Math.max(MIN_LOCAL_WINDOW_SECONDS, Math.round(limit.windowSeconds * scale)));
}

function window(limit: Limit, now: number) {
  const seconds = windowSecondsOf(limit);
  const index = Math.floor(now / seconds);
  const secondsLeft = (index + 1) * seconds - now;
  const minutesLeft = Math.max(1, Math.ceil(secondsLeft / 60));
  return { index, secondsLeft, minutesLeft, expiresAt: (index + 1) * seconds + 60 };
}

function add(limit: Limit, subject: string, by: 1 | -1) {
  const w = window(limit, epochSeconds());
  return db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.throttle(limit.bucket, subject, w.index),
      UpdateExpression: 'ADD #count :by SET #ttl = :ttl',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':by': by, ':ttl': w.expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
}

/**
 * Counts one event against the subject's window, atomically, and returns its rank in the window:
 * parallel requests each get their own number, so a limit holds however many arrive at once.
 */
export async function countEvent(limit: Limit, subject: string): Promise<number> {
  const { Attributes } = await add(limit, subject, 1);
  return Number(Attributes?.count ?? 1);
}

/** Takes back an event counted before it was known not to count (a sign-in that succeeded). */
export async function uncount(limit: Limit, subject: string): Promise<void> {
  await add(limit, subject, -1);
}

/** Counts the event and throws 429 once it passes the limit. */
export async function consume(limit: Limit, subject: string): Promise<number> {
  const count = await countEvent(limit, subject);
  if (count > limit.limit) {
    const { minutesLeft, secondsLeft } = window(limit, epochSeconds());
    throw tooManyRequests(limit.message(minutesLeft), secondsLeft);
  }
  return count;
}

/**
 * Claims the subject's next slot: succeeds only when the previous claim's delay has passed, and then
 * holds the subject for `delayMs`. One conditional write, so parallel callers get one slot between them.
 * Returns the milliseconds still to wait when the slot is taken.
 */
export async function claimSlot(limit: Limit, subject: string, delayMs: number, nowMs = Date.now()): Promise<number> {
  const w = window(limit, Math.floor(nowMs / 1000));
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.throttle(limit.bucket, subject, w.index),
        UpdateExpression: 'SET notBefore = :next, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(notBefore) OR notBefore <= :now',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':next': nowMs + delayMs, ':now': nowMs, ':ttl': w.expiresAt },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 0;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return Math.max(1, Number(error.Item?.notBefore?.N ?? 0) - nowMs);
    throw error;
  }
}
