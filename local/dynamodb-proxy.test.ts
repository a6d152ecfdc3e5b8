import {
  CreateTableCommand,
  DynamoDBClient,
  IdempotentParameterMismatchException,
  TransactionCanceledException,
  TransactionConflictException,
  TransactionInProgressException,
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
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbLocal, ownTable } from '../test/support/dynamodb-local';
import { startGate } from './dynamodb-gate';
import { type DynamoDbProxy, itemBytes, startDynamoDbProxy, writeUnits } from './dynamodb-proxy';
import { quietLogger } from './log';

const TABLE = ownTable('proxied');
const dynamo = dynamoDbLocal();
let gate: Awaited<ReturnType<typeof startGate>>;
let proxy: DynamoDbProxy | undefined;

beforeAll(async () => {
  await dynamo.client.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
  gate = await startGate(dynamo.endpoint);
});

afterEach(async () => {
  gate.open();
  await proxy?.stop();
  proxy = undefined;
});

afterAll(async () => {
  await gate?.stop();
});

async function start(conflicts = true, itemSizes = false) {
  proxy = await startDynamoDbProxy({
    port: 0,
    upstream: gate.endpoint,
    client: dynamo.client,
    conflicts,
    itemSizes,
    log: quietLogger,
  });
  // One attempt: each test sees the answer the proxy gave, not the SDK's retries of it.
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: proxy.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    }),
  );
  return { client, proxy };
}

let n = 0;
/** A fresh item of the table, so the tests share no state. */
const item = (name: string) => ({ pk: `${name}-${++n}`, sk: 'item' });

/** A message's transaction in miniature: a new item, and a counter on a shared one. */
const transaction = (hot: { pk: string; sk: string }, other: { pk: string; sk: string }) =>
  new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: TABLE, Item: { ...other, body: 'hello' } } },
      {
        Update: {
          TableName: TABLE,
          Key: hot,
          UpdateExpression: 'ADD #n :one',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ],
  });

/** Starts a request that the gate holds in flight, and waits until the gate has it; `answer` is its outcome. */
async function inFlight<T>(operation: string, send: () => Promise<T>): Promise<{ answer: Promise<T> }> {
  const before = gate.heldCount();
  gate.hold(operation);
  const pending = send();
  pending.catch(() => {});
  await expect.poll(() => gate.heldCount()).toBe(before + 1);
  return { answer: pending };
}

describe('the DynamoDB conflict proxy', () => {
  it('cancels a transaction touching an item another in-flight transaction touches, with TransactionConflict at its index', async () => {
    const { client } = await start();
    const hot = item('counters');
    const first = await inFlight('TransactWriteItems', () => client.send(transaction(hot, item('message'))));
    const second = item('message');
    const error = await client.send(transaction(hot, second)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TransactionCanceledException);
    const cancelled = error as TransactionCanceledException;
    expect(cancelled.$metadata.httpStatusCode).toBe(400);
    expect(cancelled.message).toBe(
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
    );
    expect(cancelled.CancellationReasons).toEqual([
      { Code: 'None' },
      { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
    ]);
    gate.open();
    await first.answer;
    // The first committed; the cancelled one changed nothing.
    expect((await client.send(new GetCommand({ TableName: TABLE, Key: hot }))).Item?.n).toBe(1);
    expect((await client.send(new GetCommand({ TableName: TABLE, Key: second }))).Item).toBeUndefined();
  });

  it('lets transactions on disjoint items both succeed', async () => {
    const { client } = await start();
    const first = await inFlight('TransactWriteItems', () => client.send(transaction(item('counters'), item('message'))));
    gate.open();
    await expect(client.send(transaction(item('counters'), item('message')))).resolves.toBeDefined();
    await expect(first.answer).resolves.toBeDefined();
  });

  it('answers a plain write on an item an in-flight transaction holds with TransactionConflictException', async () => {
    const { client } = await start();
    const hot = item('counters');
    const first = await inFlight('TransactWriteItems', () => client.send(transaction(hot, item('message'))));

    const update = client.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: hot,
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 's' },
        ExpressionAttributeValues: { ':s': 'x' },
      }),
    );
    const error = await update.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionConflictException);
    expect((error as Error).message).toBe('Transaction is ongoing for the item');
    await expect(client.send(new PutCommand({ TableName: TABLE, Item: { ...hot, n: 100 } }))).rejects.toBeInstanceOf(
      TransactionConflictException,
    );
    await expect(
      client.send(new BatchWriteCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: { ...hot, n: 100 } } }] } })),
    ).rejects.toBeInstanceOf(TransactionConflictException);
    // A write on another item is no conflict.
    await expect(client.send(new PutCommand({ TableName: TABLE, Item: item('elsewhere') }))).resolves.toBeDefined();

    gate.open();
    await first.answer;
    expect((await client.send(new GetCommand({ TableName: TABLE, Key: hot }))).Item).toEqual({ ...hot, n: 1 });
  });

  it('cancels a TransactGetItems reading an item a write holds, and one a write overtook', async () => {
    const { client } = await start();
    const hot = item('counters');
    const read = new TransactGetCommand({
      TransactItems: [{ Get: { TableName: TABLE, Key: item('other') } }, { Get: { TableName: TABLE, Key: hot } }],
    });
    const write = await inFlight('TransactWriteItems', () => client.send(transaction(hot, item('message'))));
    const during = await client.send(read).catch((e: unknown) => e);
    expect(during).toBeInstanceOf(TransactionCanceledException);
    expect((during as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'None',
      'TransactionConflict',
    ]);
    gate.open();
    await write.answer;

    const overtaken = await inFlight('TransactGetItems', () => client.send(read));
    await client.send(new PutCommand({ TableName: TABLE, Item: { ...hot, n: 7 } }));
    gate.open();
    await expect(overtaken.answer).rejects.toBeInstanceOf(TransactionCanceledException);
    // Two reads never conflict.
    const reading = await inFlight('TransactGetItems', () => client.send(read));
    await expect(client.send(read)).resolves.toBeDefined();
    gate.open();
    await expect(reading.answer).resolves.toBeDefined();
  });

  it('answers a repeat of a running transaction (its ClientRequestToken) TransactionInProgressException; once it ends, DynamoDB Local answers the repeat without applying it again', async () => {
    const { client } = await start();
    const hot = item('counters');
    const message = item('message');
    const once = () => {
      const command = transaction(hot, message);
      command.input.ClientRequestToken = `token-${hot.pk}`;
      return command;
    };
    const first = await inFlight('TransactWriteItems', () => client.send(once()));
    const repeat = await client.send(once()).catch((e: unknown) => e);
    expect(repeat).toBeInstanceOf(TransactionInProgressException);
    expect((repeat as Error).message).toBe('Transaction is in progress');
    gate.open();
    await first.answer;

    await expect(client.send(once())).resolves.toBeDefined();
    expect((await client.send(new GetCommand({ TableName: TABLE, Key: hot }))).Item?.n).toBe(1);
    // The same token on another request is refused, as DynamoDB does.
    const other = transaction(item('counters'), message);
    other.input.ClientRequestToken = `token-${hot.pk}`;
    await expect(client.send(other)).rejects.toBeInstanceOf(IdempotentParameterMismatchException);
  });

  it('DYNAMODB_CONFLICTS=off: overlapping transactions both commit, and the proxy still counts', async () => {
    const { client, proxy } = await start(false);
    const hot = item('counters');
    const first = await inFlight('TransactWriteItems', () => client.send(transaction(hot, item('message'))));
    const second = await inFlight('TransactWriteItems', () => client.send(transaction(hot, item('message'))));
    gate.open();
    await Promise.all([first.answer, second.answer]);
    expect((await client.send(new GetCommand({ TableName: TABLE, Key: hot }))).Item?.n).toBe(2);
    expect(proxy.stats()).toMatchObject({ transactionConflicts: 0, requests: { TransactWriteItems: 2, GetItem: 1 } });
  });

  it("holds an item for a test as another writer's transaction would, counts what it turned away, and lets go", async () => {
    const { client, proxy } = await start();
    const hot = item('counters');
    const holds = `${proxy.endpoint}/_local/holds`;
    const placed = await fetch(holds, {
      method: 'POST',
      body: JSON.stringify({ TableName: TABLE, Key: { pk: { S: hot.pk }, sk: { S: hot.sk } } }),
    });
    expect(placed.status).toBe(201);
    const { id } = (await placed.json()) as { id: string };

    await expect(client.send(transaction(hot, item('message')))).rejects.toBeInstanceOf(TransactionCanceledException);
    await expect(client.send(new PutCommand({ TableName: TABLE, Item: hot }))).rejects.toBeInstanceOf(
      TransactionConflictException,
    );
    // Reads and other items go on.
    await expect(client.send(new GetCommand({ TableName: TABLE, Key: hot }))).resolves.toBeDefined();
    await expect(client.send(transaction(item('counters'), item('message')))).resolves.toBeDefined();
    expect(await (await fetch(`${holds}/${id}`)).json()).toEqual({ turnedAway: 2 });

    const released = await fetch(`${holds}/${id}`, { method: 'DELETE' });
    expect(await released.json()).toEqual({ turnedAway: 2 });
    await client.send(transaction(hot, item('message')));
    expect((await client.send(new GetCommand({ TableName: TABLE, Key: hot }))).Item?.n).toBe(1);
    expect((await fetch(`${holds}/${id}`)).status).toBe(404);
    const unreadable = await fetch(holds, { method: 'POST', body: JSON.stringify({ Key: {} }) });
    expect([unreadable.status, await unreadable.json()]).toEqual([400, { message: 'Not a hold: no TableName and Key' }]);
  });

  it('DYNAMODB_CONFLICTS=off: refuses a hold, which could not conflict', async () => {
    const { proxy } = await start(false);
    const answer = await fetch(`${proxy.endpoint}/_local/holds`, {
      method: 'POST',
      body: JSON.stringify({ TableName: TABLE, Key: { pk: { S: 'a' }, sk: { S: 'b' } } }),
    });
    expect([answer.status, await answer.json()]).toEqual([409, { message: 'Transaction conflicts are off' }]);
  });

  it('answers GET /_local/stats with the requests and conflicts since start', async () => {
    const { client, proxy } = await start();
    const hot = item('counters');
    await client.send(new PutCommand({ TableName: TABLE, Item: hot }));
    await client.send(new GetCommand({ TableName: TABLE, Key: hot }));
    const first = await inFlight('TransactWriteItems', () => client.send(transaction(hot, item('message'))));
    await client.send(transaction(hot, item('message'))).catch(() => {});
    await client.send(new PutCommand({ TableName: TABLE, Item: hot })).catch(() => {});
    gate.open();
    await first.answer;

    const answer = await fetch(`${proxy.endpoint}/_local/stats`);
    expect(answer.headers.get('content-type')).toBe('application/json');
    const stats = await answer.json();
    expect(stats).toMatchObject({
      transactionConflicts: 2,
      requests: { PutItem: 2, GetItem: 1, TransactWriteItems: 2 },
      // The test's client signs as no function.
      byFunction: { '-': { PutItem: 2, GetItem: 1, TransactWriteItems: 2 } },
    });
    // DynamoDB Local saw only what the rules let through, each timed.
    const upstream = stats.upstream as {
      inFlight: number;
      inFlightPeak: number;
      ms: Record<string, { count: number; max: number }>;
    };
    expect(Object.fromEntries(Object.entries(upstream.ms).map(([operation, o]) => [operation, o.count]))).toEqual({
      PutItem: 1,
      GetItem: 1,
      TransactWriteItems: 1,
    });
    expect(upstream.ms.TransactWriteItems?.max).toBeGreaterThan(0);
    expect(upstream.inFlight).toBe(0);
    expect(upstream.inFlightPeak).toBeGreaterThanOrEqual(1);
  });

  it('estimates the request units each request would be billed: writes by item size and count, reads by answer size and consistency', async () => {
    const { client, proxy } = await start();
    const units = async () =>
      ((await (await fetch(`${proxy.endpoint}/_local/stats`)).json()) as { capacityUnits: { read: number; write: number } })
        .capacityUnits;
    const small = item('small');
    const big = { ...item('big'), body: 'x'.repeat(5000) };
    await client.send(new PutCommand({ TableName: TABLE, Item: small }));
    await client.send(new PutCommand({ TableName: TABLE, Item: big }));
    // 1 for the small item, 5 for the one of 5,000-odd bytes (one unit per started KB).
    expect(await units()).toEqual({ read: 0, write: 6, indexWrite: 0 });
    await client.send(transaction(small, item('message')));
    await client.send(
      new BatchWriteCommand({
        RequestItems: { [TABLE]: [{ PutRequest: { Item: item('a') } }, { PutRequest: { Item: item('b') } }] },
      }),
    );
    // A transaction 2 per item, a batch 1 per item.
    expect(await units()).toEqual({ read: 0, write: 6 + 4 + 2, indexWrite: 0 });
    await client.send(new GetCommand({ TableName: TABLE, Key: small }));
    await client.send(new GetCommand({ TableName: TABLE, Key: { pk: big.pk, sk: big.sk }, ConsistentRead: true }));
    await client.send(new TransactGetCommand({ TransactItems: [{ Get: { TableName: TABLE, Key: small } }] }));
    // Eventually consistent 0.5 per 4 KB, strongly consistent 1 per 4 KB (the big answer is 2 of them), transactional 2.
    await expect.poll(async () => (await units()).read).toBe(0.5 + 2 + 2);
  });

  it('with item sizes, bills an update and a delete by the item they change, as DynamoDB does', async () => {
    const { client, proxy } = await start(true, true);
    const writes = async () =>
      ((await (await fetch(`${proxy.endpoint}/_local/stats`)).json()) as { capacityUnits: { write: number } }).capacityUnits
        .write;
    const big = { ...item('big'), body: 'x'.repeat(2_500) };
    await client.send(new PutCommand({ TableName: TABLE, Item: big }));
    await expect.poll(writes).toBe(3);
    // The request carries a few bytes; the item it changes is 3 KB, before and after.
    await client.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: big.pk, sk: big.sk },
        UpdateExpression: 'SET n = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await expect.poll(writes).toBe(6);
    await client.send(new DeleteCommand({ TableName: TABLE, Key: { pk: big.pk, sk: big.sk } }));
    await expect.poll(writes).toBe(9);
  });

  it("passes other answers through byte for byte, DynamoDB Local's CRC32 header included", async () => {
    const { proxy } = await start();
    const ask = async (endpoint: string) => {
      const answer = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          // Its own table, not ListTables: other files create theirs in the same DynamoDB Local meanwhile.
          'x-amz-target': 'DynamoDB_20120810.DescribeTable',
          authorization:
            'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
        },
        body: JSON.stringify({ TableName: TABLE }),
      });
      return { status: answer.status, crc: answer.headers.get('x-amz-crc32'), body: await answer.text() };
    };
    const direct = await ask(dynamo.endpoint);
    expect(direct.crc).toMatch(/^\d+$/);
    expect(await ask(proxy.endpoint)).toEqual(direct);
  });
});

describe('write units by item size (npm run cost: DYNAMODB_ITEM_SIZES=on)', () => {
  const gsi1 = ['GSI1PK', 'GSI1SK'];
  const item = (fields: Record<string, string>) =>
    Object.fromEntries(Object.entries(fields).map(([name, s]) => [name, { S: s }]));
  const small = item({ PK: 'COMPANY#c', SK: 'CONV#v', GSI1PK: 'COMPANY#c#CONVS#OPEN', GSI1SK: '2026#v' });
  const large = { ...small, body: { S: 'x'.repeat(3_000) } };

  it('sizes an item as DynamoDB does: names and values, not its JSON', () => {
    expect(itemBytes(item({ PK: 'ab', SK: 'c' }))).toBe(2 + 2 + 2 + 1);
    expect(itemBytes({ n: { N: '12345' }, ok: { BOOL: true }, l: { L: [{ S: 'ab' }] } })).toBe(1 + 4 + 2 + 1 + 1 + 3 + 1 + 2);
  });

  it('bills the larger of before and after, per KB, twice in a transaction', () => {
    expect(writeUnits(undefined, large, [], false)).toEqual({ table: 3, indexes: 0 });
    expect(writeUnits(large, small, [], false)).toEqual({ table: 3, indexes: 0 });
    expect(writeUnits(small, undefined, [], true)).toEqual({ table: 2, indexes: 0 });
  });

  it('adds a write for each index entry put, and one for each deleted when the index keys change', () => {
    expect(writeUnits(undefined, large, [gsi1], false).indexes).toBe(3);
    const moved = { ...large, GSI1PK: { S: 'COMPANY#c#CONVS#CLOSED' } };
    expect(writeUnits(large, moved, [gsi1], false).indexes).toBe(6);
    // An item without the index's keys is not in it.
    expect(writeUnits(undefined, item({ PK: 'a', SK: 'b' }), [gsi1], false).indexes).toBe(0);
    // Leaving the index deletes its entry.
    expect(writeUnits(small, undefined, [gsi1], false).indexes).toBe(1);
  });
});
