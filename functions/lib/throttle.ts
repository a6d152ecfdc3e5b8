import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

/**
 * One limit over a sliding window, counted in weighted events (a text's segments): the current fixed
 * window's count plus the previous one's, weighted by how much of it the sliding window still covers.
 * So a burst cannot fit twice across a window's edge, and the count is still one atomic ADD per window
 * item (expired by TTL) and one read of the previous one.
 */
export interface SlidingLimit {
  bucket: string;
  subject: string;
  limit: number;
  windowSeconds: number;
  /** The refusal, given when to try again in words ("in 40 seconds"). */
  message: (tryAgain: string) => string;
}

/** "in 40 seconds", "in 1 minute", "in 12 minutes": how a refusal says when to come back. */
export function tryAgainIn(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `in ${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `in ${m} minute${m === 1 ? '' : 's'}`;
}

/** What the sliding window holds `elapsed` seconds into the current window. */
export function slidingCount(previous: number, current: number, elapsed: number, windowSeconds: number): number {
  return previous * Math.max(0, 1 - elapsed / windowSeconds) + current;
}

/**
 * Seconds until `weight` more fit under `limit`, `elapsed` seconds into the current window, with
 * `previous` and `current` counted (without the weight): 0 when they fit now.
 */
export function slidingWait(
  counts: { previous: number; current: number },
  weight: number,
  limit: number,
  elapsed: number,
  windowSeconds: number,
): number {
  const { previous, current } = counts;
  if (slidingCount(previous, current, elapsed, windowSeconds) + weight <= limit) return 0;
  if (current + weight <= limit) {
    // Within this window, as the previous one slides out.
    const at = windowSeconds * (1 - (limit - current - weight) / previous);
    return Math.max(0, at - elapsed);
  }
  // In the next window, as this one slides out.
  const into = current > 0 ? Math.max(0, windowSeconds * (1 - (limit - weight) / current)) : 0;
  return windowSeconds - elapsed + into;
}

async function addWeight(key: { bucket: string; subject: string }, index: number, expiresAt: number, by: number) {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.throttle(key.bucket, key.subject, index),
      UpdateExpression: 'ADD #count :by SET #ttl = :ttl',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':by': by, ':ttl': expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.count ?? by);
}

async function previousCount(limit: SlidingLimit, index: number): Promise<number> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.throttle(limit.bucket, limit.subject, index - 1) }),
  );
  return Number(Item?.count ?? 0);
}

/**
 * Counts `weight` against every limit at once; when any is passed, takes the weight back from all and
 * throws 429 with the refusal of the one that holds longest (the others free up before it). Parallel
 * requests each see the others' counts (one atomic ADD each), so together they cannot pass a limit.
 * Answers how to take the weight back (the event did not happen after all).
 */
export async function consumeSliding(
  limits: readonly SlidingLimit[],
  weight: number,
  nowMs = Date.now(),
): Promise<() => Promise<void>> {
  const counted = await Promise.all(
    limits.map(async (limit) => {
      const index = Math.floor(nowMs / 1000 / limit.windowSeconds);
      const elapsed = nowMs / 1000 - index * limit.windowSeconds;
      // Kept for two windows: the next one still reads it as its previous.
      const expiresAt = (index + 2) * limit.windowSeconds + 60;
      const [current, previous] = await Promise.all([addWeight(limit, index, expiresAt, weight), previousCount(limit, index)]);
      return { limit, index, elapsed, expiresAt, current, previous };
    }),
  );
  const undo = async () => {
    await Promise.all(counted.map((c) => addWeight(c.limit, c.index, c.expiresAt, -weight)));
  };
  const refusals = counted
    .filter((c) => slidingCount(c.previous, c.current, c.elapsed, c.limit.windowSeconds) > c.limit.limit)
    .map((c) => ({
      limit: c.limit,
      wait: slidingWait(
        { previous: c.previous, current: c.current - weight },
        weight,
        c.limit.limit,
        c.elapsed,
        c.limit.windowSeconds,
      ),
    }));
  if (refusals.length === 0) return undo;
  await undo();
  const longest = refusals.reduce((a, b) => (b.wait > a.wait ? b : a));
  const seconds = Math.max(1, Math.ceil(longest.wait));
  throw tooManyRequests(longest.limit.message(tryAgainIn(seconds)), seconds);
}
