import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableAccess } from '../functions/lib/capabilities';
import { httpContract } from '../shared/contract/route';
import { ensureTable, startDynamoDb } from './dynamodb';
import { createGateway, type LambdaHandler } from './gateway';
import { quietLogger } from './log';
import { freePort } from './ports';

const TABLE = 'guarded';
let dynamo: Awaited<ReturnType<typeof startDynamoDb>>;
let gateway: ReturnType<typeof createGateway>;
let base: string;

/** A table operation as a handler does it: through the functions' own client (functions/lib/db.ts). */
const operation =
  (send: (key: { PK: string; SK: string }) => object): LambdaHandler =>
  async (event) => {
    const { db } = await import('../functions/lib/db');
    const key = { PK: 'GUARD', SK: (event as { rawPath: string }).rawPath };
    try {
      await db.send(send(key) as PutCommand);
      return { statusCode: 200, body: JSON.stringify({ done: true }) };
    } catch (error) {
      return { statusCode: 500, body: JSON.stringify({ error: (error as Error).name, message: (error as Error).message }) };
    }
  };

const handlers = {
  put: operation((Key) => new PutCommand({ TableName: TABLE, Item: { ...Key, note: 'written' } })),
  get: operation((Key) => new GetCommand({ TableName: TABLE, Key })),
  transact: operation(
    (Key) => new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: { ...Key, note: 'written' } } }] }),
  ),
  scan: operation(() => new ScanCommand({ TableName: TABLE })),
};

const route = (table: TableAccess, handler: keyof typeof handlers) => ({
  contract: httpContract({ method: 'GET', path: `/${table}/${handler}`, auth: 'public' }),
  handler,
  table,
  capabilities: [],
});

beforeAll(async () => {
  dynamo = await startDynamoDb({ port: await freePort(), log: quietLogger });
  await ensureTable(dynamo.client, TABLE);
  gateway = createGateway({
    log: quietLogger,
    environment: {
      TABLE_NAME: TABLE,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    },
    routes: {
      http: [
        route('read', 'put'),
        route('read', 'get'),
        route('read', 'transact'),
        route('write', 'put'),
        route('write', 'transact'),
        route('write', 'scan'),
        route('none', 'get'),
      ],
      socket: [],
      fallback: { handler: 'system/not-found', table: 'none', capabilities: [] },
    },
    handlers,
  });
  const port = await freePort();
  await gateway.listen(port);
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await gateway?.close();
  await dynamo?.stop();
});

const call = async (path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: (await res.json()) as { done?: true; error?: string; message?: string } };
};
const stored = async (path: string) =>
  (await DynamoDBDocumentClient.from(dynamo.client).send(new GetCommand({ TableName: TABLE, Key: { PK: 'GUARD', SK: path } })))
    .Item;

describe("the local gateway holds each function to its route's table declaration, as IAM does in AWS", () => {
  it('refuses a write from a read-only function, and nothing is written', async () => {
    for (const path of ['/read/put', '/read/transact']) {
      const { status, body } = await call(path);
      expect({ path, status, error: body.error }).toEqual({ path, status: 500, error: 'AccessDeniedException' });
      expect(body.message).toMatch(/not authorized to perform: dynamodb:PutItem .*table: 'read'/);
      expect(await stored(path), path).toBeUndefined();
    }
  });

  it('lets a read-only function read', async () => {
    expect(await call('/read/get')).toEqual({ status: 200, body: { done: true } });
  });

  it('lets a writing function write, alone or in a transaction', async () => {
    for (const path of ['/write/put', '/write/transact']) {
      expect(await call(path), path).toEqual({ status: 200, body: { done: true } });
      expect(await stored(path), path).toMatchObject({ note: 'written' });
    }
  });

  it('refuses every operation to a function without table access, and a Scan to any function', async () => {
    expect((await call('/none/get')).body).toMatchObject({ error: 'AccessDeniedException', message: /dynamodb:GetItem/ });
    expect((await call('/write/scan')).body).toMatchObject({ error: 'AccessDeniedException', message: /dynamodb:Scan/ });
  });
});
