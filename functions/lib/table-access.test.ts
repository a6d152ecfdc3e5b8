import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTable } from '../../local/dynamodb';
import { dynamoDbLocal, ownTable } from '../../test/support/dynamodb-local';
import { keyIds, keys } from './table';

/**
 * The table-access helpers every entity module reads and writes through (lib/query.ts, lib/transact.ts),
 * against DynamoDB Local: paging past DynamoDB's 1 MB a page, the prefix range, and a cancelled
 * transaction's reasons read by item name.
 */
const TABLE = ownTable('table-access');
const dynamo = dynamoDbLocal();
let query: typeof import('./query');
let transact: typeof import('./transact');
let put: (item: Record<string, unknown>) => Promise<unknown>;

beforeAll(async () => {
  await ensureTable(dynamo.client, TABLE);
  // The module-scope table client reads these when first imported (lib/db.ts).
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = TABLE;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  // Files share modules (vitest.config.ts): a client another file created read another table.
  vi.resetModules();
  query = await import('./query');
  transact = await import('./transact');
  const { db } = await import('./db');
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  put = (item) => db.send(new PutCommand({ TableName: TABLE, Item: item }));
});

describe('queryPrefix', () => {
  it('reads every page of a partition larger than one 1 MB answer', async () => {
    const { PK, SKPrefix } = keys.usersOf('paged');
    const padding = 'x'.repeat(100_000);
    // 12 items of 100 KB: more than one 1 MB page.
    for (let i = 0; i < 12; i++) await put({ PK, SK: `${SKPrefix}${String(i).padStart(2, '0')}`, padding, n: i });
    let pages = 0;
    for await (const _ of query.queryPages(query.prefixQuery({ PK, SKPrefix }, { projection: 'n' }))) pages++;
    const items = await query.queryPrefix<{ n: number }>({ PK, SKPrefix }, { projection: 'n' });
    expect(pages).toBeGreaterThan(1);
    expect(items.map((item) => item.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('keeps to the prefix: neighbours that share its first letters are not read', async () => {
    const companyId = 'neighbours';
    await put({ ...keys.user(companyId, 'u1'), n: 1 });
    await put({ ...keys.userInbox(companyId, 'u1', 'i1'), n: 2 });
    await put({ ...keys.userSession(companyId, 'u1', 'f1'), n: 3 });
    await put({ ...keys.company(companyId), n: 4 });
    const users = await query.queryPrefix<{ SK: string }>(keys.usersOf(companyId));
    expect(users.map((u) => u.SK)).toEqual(['USER#u1']);
  });

  it("reads the company item and its counter shards, and none of the company's other items", async () => {
    const companyId = 'counted';
    await put({ ...keys.company(companyId), n: 1 });
    await put({ ...keys.companyCounters(companyId, 0), n: 2 });
    await put({ ...keys.companyCounters(companyId, 7), n: 3 });
    await put({ ...keys.user(companyId, 'u1'), n: 4 });
    await put({ ...keys.conversation(companyId, 'v1'), n: 5 });
    const items = await query.queryPrefix<{ SK: string }>(keys.companyWithCountersOf(companyId));
    expect(items.map((i) => i.SK)).toEqual(['META', 'META#COUNTERS#0', 'META#COUNTERS#7']);
  });

  it('filters, and reads the highest sort key first when asked', async () => {
    const companyId = 'filtered';
    for (const [id, expiresAt] of [
      ['a', 10],
      ['b', 30],
      ['c', 20],
    ] as const)
      await put({ ...keys.connection(companyId, id), connectionId: id, expiresAt });
    const live = await query.queryPrefix<{ connectionId: string }>(keys.connectionsOf(companyId), {
      filter: { expression: 'expiresAt > :now', values: { ':now': 15 } },
      descending: true,
    });
    expect(live.map((c) => c.connectionId)).toEqual(['c', 'b']);
  });
});

describe('transact with named items', () => {
  const { TableName } = { TableName: TABLE };
  const taken = keys.inboxName('named', 'support');

  it('says which named item failed its condition, wherever it stands', async () => {
    await put({ ...taken, inboxId: 'first' });
    const fresh = keys.inbox('named', 'second');
    const result = await transact.transact([
      { Put: { TableName, Item: { ...fresh }, ConditionExpression: 'attribute_not_exists(PK)' } },
      transact.named('name', { Put: { TableName, Item: { ...taken }, ConditionExpression: 'attribute_not_exists(PK)' } }),
      transact.named('inbox', {
        ConditionCheck: { TableName, Key: keys.inbox('named', 'third'), ConditionExpression: 'attribute_not_exists(PK)' },
      }),
    ]);
    expect(result.written).toBe(false);
    if (result.written) return;
    expect(result.failed('name')).toBe(true);
    expect(result.failed('inbox')).toBe(false);
    expect(result.reasons.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed', 'None']);
  });

  it('writes all the items when every condition holds', async () => {
    const item = keys.inboxName('named', 'sales');
    const result = await transact.transact([
      transact.named('name', { Put: { TableName, Item: { ...item }, ConditionExpression: 'attribute_not_exists(PK)' } }),
    ]);
    expect(result).toEqual({ written: true });
  });
});

describe('keyIds', () => {
  it('reads the ids back out of the keys the builders make', () => {
    expect(keyIds.companyOf(keys.company('c-1').PK)).toBe('c-1');
    expect(keyIds.companyOf(keys.message('c-2', 'conv', '2026-01-01T00:00:00.000Z', 'm').PK)).toBe('c-2');
    expect(keyIds.numberOf(keys.number('+15550100').PK)).toBe('+15550100');
  });
});

describe('key conditions', () => {
  // DynamoDB Local's begins_with reads the whole partition (a 10,000-conversation company made the
  // list's counter read 7 times slower); prefixQuery's range reads only the prefix, as DynamoDB does.
  it('never use begins_with on the sort key in the functions: prefixQuery gives the same items as a range', () => {
    const root = join(import.meta.dirname, '..');
    const offenders = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => /KeyConditionExpression:[^\n]*begins_with/.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
