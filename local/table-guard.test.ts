import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TableAccess } from '../functions/lib/capabilities';
import { httpContract } from '../shared/contract/route';
import { dynamoDbLocal, ownTable } from '../test/support/dynamodb-local';
import { ensureTable } from './dynamodb';
import { startDynamoDbProxy } from './dynamodb-proxy';
import { handler as get } from './fixtures/functions/table-get';
import { handler as put } from './fixtures/functions/table-put';
import { handler as scan } from './fixtures/functions/table-scan';
import { handler as transact } from './fixtures/functions/table-transact';
import { createGateway, type LambdaHandler } from './gateway';
import { quietLogger } from './log';
import { freePort } from './ports';

const TABLE = ownTable('guarded');
const dynamo = dynamoDbLocal();
let proxy: Awaited<ReturnType<typeof startDynamoDbProxy>>;

/** The fixture functions (local/fixtures/functions/table-*.ts), for the in-process mode. */
const handlers = { get, put, scan, transact } as unknown as Record<string, LambdaHandler>;

const route = (table: TableAccess, operation: keyof typeof handlers, mode: Mode) => ({
  contract: httpContract({ method: 'GET', path: `/${table}/${operation}`, auth: 'public' }),
  // In-process, the handlers given by name; in environments, a function per route, as in the route table.
  handler: mode === 'in-process' ? operation : `${table}-${operation}`,
  table,
  capabilities: [],
});

type Mode = 'in-process' | 'environments';

beforeAll(async () => {
  await ensureTable(dynamo.client, TABLE);
  proxy = await startDynamoDbProxy({
    port: await freePort(),
    upstream: dynamo.endpoint,
    client: dynamo.client,
    conflicts: true,
    log: quietLogger,
  });
});

afterAll(async () => {
  await proxy?.stop();
});

/**
 * In-process, the gateway's check on the functions' table client refuses; in environments of their own,
 * each function signs as itself and the DynamoDB proxy refuses, as IAM does (local/table-guard.ts).
 */
describe.each<Mode>(['in-process', 'environments'])('functions %s', (mode) => {
  let gateway: ReturnType<typeof createGateway>;
  let base: string;

  beforeAll(async () => {
    // In-process, the fixtures' table client is created on first use, in this gateway's environment:
    // not one another file of this worker created (vitest.config.ts: files share modules).
    vi.resetModules();
    const table = (access: TableAccess, ...operations: (keyof typeof handlers)[]) =>
      operations.map((operation) => route(access, operation, mode));
    gateway = createGateway({
      log: quietLogger,
      environment: {
        TABLE_NAME: TABLE,
        DYNAMODB_ENDPOINT: proxy.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
      },
      routes: {
        http: [...table('read', 'put', 'get', 'transact'), ...table('write', 'put', 'transact', 'scan'), ...table('none', 'get')],
        socket: [],
        fallback: { handler: 'not-found', table: 'none', capabilities: [] },
      },
      ...(mode === 'in-process'
        ? { handlers }
        : {
            entryOf: (handler: string) =>
              `local/fixtures/functions/${handler === 'not-found' ? handler : `table-${handler.split('-')[1]}`}.ts`,
          }),
    });
    const port = await freePort();
    await gateway.listen(port);
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(() => gateway?.close());

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
});
