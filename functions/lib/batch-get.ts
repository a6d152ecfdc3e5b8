import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { backoffMs, roomForAnother } from './backoff';
import { tableName } from './config';
import { db } from './db';

type Key = Record<string, unknown>;
type Item = Record<string, unknown>;

/** BatchGetItem takes at most 100 keys a request. */
export const BATCH_GET_MAX_KEYS = 100;
/** Rounds for one request's keys: its first and the asks again for what DynamoDB left unprocessed. */
export const BATCH_GET_MAX_ROUNDS = 8;

/**
 * Keys DynamoDB still left unprocessed after every round there was room for (the table's throughput
 * exceeded, as a throttled request after the SDK's retries): the caller gets this rather than fewer
 * items than it asked for, and a route answers 503 (define-handler).
 */
export class UnprocessedKeysError extends Error {
  constructor(readonly unprocessed: number) {
    super(`BatchGetItem left ${unprocessed} keys unprocessed after its retries`);
    this.name = 'UnprocessedKeysError';
  }
}

/**
 * The items of these keys of the table (those that exist, in no particular order), however many:
 * repeated keys asked once, 100 a request, and the keys DynamoDB leaves unprocessed (throttling, a
 * 16 MB answer) asked again after the back-off (lib/backoff.ts) for at most BATCH_GET_MAX_ROUNDS
 * rounds within the function's deadline. Never fewer than it was asked for: what is still unprocessed
 * then is thrown (UnprocessedKeysError).
 */
export async function batchGetAll<T = Item>(
  keys: readonly Key[],
  options: { ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ConsistentRead?: boolean } = {},
): Promise<T[]> {
  const TableName = tableName();
  const distinct = [...new Map(keys.map((key) => [JSON.stringify(Object.entries(key).sort()), key])).values()];
  const found: T[] = [];
  for (let i = 0; i < distinct.length; i += BATCH_GET_MAX_KEYS) {
    let pending = distinct.slice(i, i + BATCH_GET_MAX_KEYS);
    for (let round = 1; ; round++) {
      const res = await db.send(new BatchGetCommand({ RequestItems: { [TableName]: { ...options, Keys: pending } } }));
      found.push(...((res.Responses?.[TableName] ?? []) as T[]));
      pending = (res.UnprocessedKeys?.[TableName]?.Keys ?? []) as Key[];
      if (pending.length === 0) break;
      const pause = backoffMs(round);
      if (round >= BATCH_GET_MAX_ROUNDS || !roomForAnother(round, pause)) throw new UnprocessedKeysError(pending.length);
      await sleep(pause);
    }
  }
  return found;
}
