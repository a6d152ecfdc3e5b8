import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DynamoDBClient,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGate } from '../../local/dynamodb-gate';
import { type DynamoDbProxy, startDynamoDbProxy } from '../../local/dynamodb-proxy';
import { quietLogger } from '../../local/log';
import { dynamoDbLocal, ownTable } from '../../test/support/dynamodb-local';
import { BACKOFF } from './backoff';
import { retryConflicts, TABLE_CLIENT_RETRY } from './db';
import { withDeadline } from './deadline';

/**
 * The table client (lib/db) against DynamoDB's transaction conflicts, made by the local conflict proxy
 * in front of DynamoDB Local (local/dynamodb-proxy.ts); the gate between them holds a transaction in
 * flight for as long as a test needs, or loses an answer DynamoDB Local gave.
 */
const TABLE = ownTable('conflicts');
const dynamo = dynamoDbLocal();
let gate: Awaited<ReturnType<typeof startGate>>;
let proxy: DynamoDbProxy;
let db: DynamoDBDocumentClient;
/** Every ClientRequestToken the table client sent, attempt by attempt. */
const tokens: string[] = [];

beforeAll(async () => {
  await dynamo.client.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
  gate = await startGate(dynamo.endpoint);
  proxy = await startDynamoDbProxy({
    port: 0,
    upstream: gate.endpoint,
    client: dynamo.client,
    conflicts: true,
    log: quietLogger,
  });
  // Configured as lib/db configures the product's client, on the proxy.
  const client = new DynamoDBClient({
    ...TABLE_CLIENT_RETRY,
    endpoint: proxy.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  retryConflicts(client);
  client.middlewareStack.add(
    (next) => async (args) => {
      const token = (args.input as { ClientRequestToken?: string }).ClientRequestToken;
      if (token) tokens.push(token);
      return next(args);
    },
    { step: 'serialize', name: 'recordTokens' },
  );
  db = DynamoDBDocumentClient.from(client);
});

beforeEach(() => {
  gate.open();
  gate.forget();
  tokens.length = 0;
});

afterAll(async () => {
  gate?.open();
  await proxy?.stop();
  await gate?.stop();
});

let n = 0;
const item = (name: string) => ({ PK: `${name}-${++n}`, SK: 'item' });
const count = async (key: { PK: string; SK: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item?.n;
const stats = () => proxy.stats();
const increment = (key: { PK: string; SK: string }) => ({
  Update: { TableName: TABLE, Key: key, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } },
});

/** Starts a transaction on `keys` that the gate holds in flight; `release` lets it commit. */
async function heldTransaction(keys: { PK: string; SK: string }[], token?: string) {
  const before = gate.heldCount();
  gate.hold('TransactWriteItems');
  const answer = db.send(new TransactWriteCommand({ TransactItems: keys.map(increment), ClientRequestToken: token }));
  answer.catch(() => {});
  await expect.poll(() => gate.heldCount()).toBe(before + 1);
  return {
    release: async () => {
      gate.open();
      await answer;
    },
  };
}

describe('the table client under transaction conflicts', () => {
  it('commits every one of 20 parallel transactions on one item, once each, a fresh ClientRequestToken per attempt', async () => {
    const hot = item('counters');
    const conflictsBefore = stats().transactionConflicts;
    const writes = Array.from({ length: 20 }, (_, i) =>
      withDeadline(10_000, () =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [{ Put: { TableName: TABLE, Item: { ...item(`message-${i}`) } } }, increment(hot)],
          }),
        ),
      ),
    );
    const outcomes = await Promise.allSettled(writes);

    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    expect(await count(hot)).toBe(20);
    const conflicts = stats().transactionConflicts - conflictsBefore;
    expect(conflicts).toBeGreaterThan(0);
    // Every attempt carried a token of its own: one per committed transaction and one per cancelled attempt.
    expect(tokens).toHaveLength(20 + conflicts);
    expect(new Set(tokens).size).toBe(tokens.length);
    // Only the attempts that committed reached DynamoDB Local: 20, each with its own token.
    const committed = gate.passed('TransactWriteItems').map((p) => p.body.ClientRequestToken);
    expect(new Set(committed).size).toBe(20);
    expect(tokens).toEqual(expect.arrayContaining(committed));
  });

  it('sends a plain write that met a transaction again once the transaction is over (Put, Update, Delete, BatchWrite)', async () => {
    const [a, b, c, d] = [item('put'), item('update'), item('delete'), item('batch')] as const;
    const running = await heldTransaction([a, b, c, d]);
    const conflictsBefore = stats().transactionConflicts;
    const writes = withDeadline(10_000, () =>
      Promise.all([
        db.send(new PutCommand({ TableName: TABLE, Item: { ...a, n: 10 } })),
        db.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: b,
            UpdateExpression: 'SET s = :s',
            ExpressionAttributeValues: { ':s': 'x' },
          }),
        ),
        db.send(new DeleteCommand({ TableName: TABLE, Key: c })),
        db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: { ...d, n: 40 } } }] } })),
      ]),
    );
    writes.catch(() => {});
    // Each met the transaction at least once before it ended.
    await expect.poll(() => stats().transactionConflicts - conflictsBefore).toBeGreaterThanOrEqual(4);
    await running.release();
    await expect(writes).resolves.toHaveLength(4);

    const read = async (key: { PK: string; SK: string }) =>
      (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
    expect(await read(a)).toEqual({ ...a, n: 10 });
    expect(await read(b)).toEqual({ ...b, n: 1, s: 'x' });
    expect(await read(c)).toBeUndefined();
    expect(await read(d)).toEqual({ ...d, n: 40 });
  });

  it('reads with TransactGetItems again when a write held the item', async () => {
    const hot = item('counters');
    const running = await heldTransaction([hot]);
    const conflictsBefore = stats().transactionConflicts;
    const read = withDeadline(10_000, () =>
      db.send(new TransactGetCommand({ TransactItems: [{ Get: { TableName: TABLE, Key: hot } }] })),
    );
    read.catch(() => {});
    await expect.poll(() => stats().transactionConflicts - conflictsBefore).toBeGreaterThanOrEqual(1);
    await running.release();
    expect((await read).Responses?.[0]?.Item).toEqual({ ...hot, n: 1 });
  });

  it('answers a transaction cancelled by a failed condition at once, without trying again', async () => {
    const requestsBefore = stats().requests.TransactWriteItems ?? 0;
    const error = await withDeadline(10_000, () =>
      db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: item('message') } },
            { ConditionCheck: { TableName: TABLE, Key: item('missing'), ConditionExpression: 'attribute_exists(PK)' } },
          ],
        }),
      ),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'None',
      'ConditionalCheckFailed',
    ]);
    expect((stats().requests.TransactWriteItems ?? 0) - requestsBefore).toBe(1);
    // A plain conditional write that fails is likewise an answer, sent once.
    await expect(
      db.send(new PutCommand({ TableName: TABLE, Item: item('x'), ConditionExpression: 'attribute_exists(PK)' })),
    ).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  it('throws the conflict as before when the deadline leaves no room for another attempt', async () => {
    const hot = item('counters');
    const running = await heldTransaction([hot]);
    const putsBefore = stats().requests.PutItem ?? 0;
    const error = await withDeadline(BACKOFF.reserveMs - 1, () =>
      db.send(new PutCommand({ TableName: TABLE, Item: { ...hot, n: 5 } })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionConflictException);
    expect((stats().requests.PutItem ?? 0) - putsBefore).toBe(1);
    await running.release();
    expect(await count(hot)).toBe(1);
  });

  it("recognises the SDK's retry of a transaction whose answer was lost: applied once", async () => {
    const hot = item('counters');
    gate.loseAnswer('TransactWriteItems');
    await withDeadline(10_000, () => db.send(new TransactWriteCommand({ TransactItems: [increment(hot)] })));

    const sent = gate.passed('TransactWriteItems');
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body.ClientRequestToken).toBe(sent[0]?.body.ClientRequestToken);
    expect(await count(hot)).toBe(1);
  });

  it('repeats a transaction answered TransactionInProgressException with the same token: applied once', async () => {
    const hot = item('counters');
    const token = `token-${hot.PK}`;
    const running = await heldTransaction([hot], token);
    const repeat = withDeadline(10_000, () =>
      db.send(new TransactWriteCommand({ TransactItems: [increment(hot)], ClientRequestToken: token })),
    );
    repeat.catch(() => {});
    await expect.poll(() => stats().requests.TransactWriteItems).toBeGreaterThanOrEqual(2);
    await running.release();
    await expect(repeat).resolves.toBeDefined();
    expect(await count(hot)).toBe(1);
    expect(new Set(tokens)).toEqual(new Set([token]));
  });
});
