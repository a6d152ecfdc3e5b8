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
}

function window(limit: Limit, now: number) {
  const index = Math.floor(now / limit.windowSeconds);
  const minutesLeft = Math.max(1, Math.ceil(((index + 1) * limit.windowSeconds - now) / 60));
  return { index, minutesLeft, expiresAt: (index + 1) * limit.windowSeconds + 60 };
}

/** Throws 429 when the subject has used up the window already; counts nothing. */
export async function assertUnderLimit(limit: Limit, subject: string): Promise<void> {
  const now = epochSeconds();
  const w = window(limit, now);
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.throttle(limit.bucket, subject, w.index), ConsistentRead: true }),
  );
  if ((Item?.count ?? 0) >= limit.limit) throw tooManyRequests(limit.message(w.minutesLeft));
}

/** Counts one event against the subject's window. */
export async function countEvent(limit: Limit, subject: string): Promise<number> {
  const w = window(limit, epochSeconds());
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.throttle(limit.bucket, subject, w.index),
      UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ':ttl': w.expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.count ?? 1);
}

/** Counts the event and throws 429 once it passes the limit. */
export async function consume(limit: Limit, subject: string): Promise<void> {
  const count = await countEvent(limit, subject);
  if (count > limit.limit) {
    throw tooManyRequests(limit.message(window(limit, epochSeconds()).minutesLeft));
  }
}
