import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTable } from '../../local/dynamodb';
import { dynamoDbLocal, ownTable } from '../../test/support/dynamodb-local';
import { BACKOFF } from './backoff';

const TABLE = ownTable('batch-get');
const dynamo = dynamoDbLocal();
let lib: typeof import('./batch-get');
let db: DynamoDBDocumentClient;
/** The deadline as batch-get's own copy of lib/deadline reads it (imported after vi.resetModules). */
let withDeadline: typeof import('./deadline')['withDeadline'];

beforeAll(async () => {
  await ensureTable(dynamo.client, TABLE);
  // The functions' own client (lib/db), created when first imported, on this DynamoDB Local.
  vi.stubEnv('DYNAMODB_ENDPOINT', dynamo.endpoint);
  vi.stubEnv('TABLE_NAME', TABLE);
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  // Files share modules (vitest.config.ts): a client another file created read another table.
  vi.resetModules();
  lib = await import('./batch-get');
  db = (await import('./db')).db;
  ({ withDeadline } = await import('./deadline'));
});

afterAll(() => {
  vi.unstubAllEnvs();
});

const key = (pk: string, i: number) => ({ PK: pk, SK: `ITEM#${String(i).padStart(3, '0')}` });

async function put(items: Record<string, unknown>[]) {
  for (let i = 0; i < items.length; i += 25) {
    await db.send(
      new BatchWriteCommand({ RequestItems: { [TABLE]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
}

describe('batchGetAll', () => {
  it("asks again for the keys DynamoDB leaves unprocessed: 60 items of 390 KB, over BatchGet's 16 MB answer, all read", async () => {
    const blob = 'x'.repeat(390_000);
    const keys = Array.from({ length: 60 }, (_, i) => key('BIG', i));
    for (const k of keys) await put([{ ...k, blob }]);
    // One BatchGetItem alone answers part of them (DynamoDB Local keeps to the 16 MB limit).
    const whole = await db.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: keys } } }));
    expect(whole.UnprocessedKeys?.[TABLE]?.Keys?.length).toBeGreaterThan(0);

    const items = await lib.batchGetAll(keys);
    expect(items.map((item) => item.SK).sort()).toEqual(keys.map((k) => k.SK));
    expect(items.every((item) => item.blob === blob)).toBe(true);
  });

  it('reads more than 100 keys, each repeated key once, and leaves out the keys of no item', async () => {
    await put(Array.from({ length: 230 }, (_, i) => ({ ...key('MANY', i), n: i })));
    const keys = [...Array.from({ length: 250 }, (_, i) => key('MANY', i)), key('MANY', 7), key('MANY', 120)];
    const items = await lib.batchGetAll<{ SK: string; n: number }>(keys, {
      ProjectionExpression: 'SK, #n',
      ExpressionAttributeNames: { '#n': 'n' },
      ConsistentRead: true,
    });
    expect(items.map((item) => item.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 230 }, (_, i) => i));
    expect(items[0]).toEqual({ SK: expect.any(String), n: expect.any(Number) });
    expect(await lib.batchGetAll([])).toEqual([]);
  });
});

/**
 * Keys that stay unprocessed (a table throttled for longer than the retries last) DynamoDB Local
 * cannot be made to answer, so here the client answers for it.
 */
describe('batchGetAll when keys stay unprocessed', () => {
  it('backs off between rounds, then throws rather than answering fewer items than asked for', async () => {
    const table = mockClient(db);
    try {
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      const rounds: number[] = [];
      table.on(BatchGetCommand).callsFake((input) => {
        rounds.push(Date.now());
        const [first, ...rest] = input.RequestItems[TABLE].Keys;
        return { Responses: { [TABLE]: [{ ...first, found: true }] }, UnprocessedKeys: { [TABLE]: { Keys: rest } } };
      });
      // Each round reads one of 3 keys: all read by the third.
      expect(await lib.batchGetAll([key('A', 1), key('A', 2), key('A', 3)])).toHaveLength(3);

      rounds.length = 0;
      table.on(BatchGetCommand).callsFake((input) => {
        rounds.push(Date.now());
        return { Responses: { [TABLE]: [] }, UnprocessedKeys: { [TABLE]: { Keys: input.RequestItems[TABLE].Keys } } };
      });
      const error = await lib.batchGetAll([key('A', 1)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(lib.UnprocessedKeysError);
      expect((error as Error).message).toBe('BatchGetItem left 1 keys unprocessed after its retries');
      expect(rounds).toHaveLength(lib.BATCH_GET_MAX_ROUNDS);
      // Half of each ceiling (25, 50, 100, 200, 400, 500, 500 ms): never a tight loop.
      const gaps = rounds.slice(1).map((at, i) => at - (rounds[i] as number));
      expect(gaps.every((gap, i) => gap >= Math.min(BACKOFF.capMs, BACKOFF.baseMs * 2 ** i) / 2 - 2)).toBe(true);

      // Inside a function, fewer rounds when its deadline leaves no room for more.
      rounds.length = 0;
      await expect(withDeadline(BACKOFF.reserveMs + 100, () => lib.batchGetAll([key('A', 1)]))).rejects.toBeInstanceOf(
        lib.UnprocessedKeysError,
      );
      expect(rounds.length).toBeLessThan(lib.BATCH_GET_MAX_ROUNDS);
    } finally {
      table.restore();
      vi.restoreAllMocks();
    }
  });
});
