import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { sumCounts } from '../../functions/conversations/records';
import { keys } from '../../functions/lib/table';
import { ensureTable } from '../../local/dynamodb';
import { stack } from './api';

/**
 * Direct access to the local table, for the few states a test cannot reach through the API in
 * reasonable time (a link 24 hours old, a session 30 days old).
 */
export function testTable() {
  const { env } = stack();
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.DYNAMODB_ENDPOINT,
      region: env.AWS_REGION,
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
    }),
  );
  return { client, tableName: env.TABLE_NAME };
}

/** Every item under a key prefix of `keys` (a partition's sort-key prefix), read consistently. */
export async function itemsUnder<T = Record<string, unknown>>(prefix: { PK: string; SKPrefix: string }): Promise<T[]> {
  const { client, tableName } = testTable();
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': prefix.PK, ':sk': prefix.SKPrefix },
      ConsistentRead: true,
    }),
  );
  return Items as T[];
}

/**
 * A table of a test file's own in the shared DynamoDB Local, made before its tests and deleted after:
 * for a function that visits every company of its table (a sweep, a re-point), which the shared
 * table's other files would disturb. Its name starts with `prefix`.
 */
export function tableOfOwn(prefix: string): string {
  const tableName = `${prefix}-${randomUUID().slice(0, 8)}`;
  const dynamo = () => {
    const { env } = stack();
    return new DynamoDBClient({
      endpoint: env.DYNAMODB_ENDPOINT,
      region: env.AWS_REGION,
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
    });
  };
  beforeAll(async () => {
    await ensureTable(dynamo(), tableName);
  });
  afterAll(async () => {
    await dynamo().send(new DeleteTableCommand({ TableName: tableName }));
  });
  return tableName;
}

/** The company's counters as the table holds them (consistently read): the company item and its shards, summed. */
export async function companyCounts(companyId: string) {
  const { client, tableName } = testTable();
  const { PK, SK } = keys.company(companyId);
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :meta)',
      ExpressionAttributeValues: { ':pk': PK, ':meta': SK },
      ConsistentRead: true,
    }),
  );
  return sumCounts(Items);
}

/** What the stack asked of the table so far, and the transaction conflicts it met (local/dynamodb-proxy.ts). */
export async function tableStats(): Promise<{ transactionConflicts: number; requests: Record<string, number> }> {
  return (await fetch(`${stack().urls.dynamodb}/_local/stats`)).json();
}

/**
 * Another writer's transaction in flight on one item of the stack's table, until `release`
 * (local/dynamodb-proxy.ts, `/_local/holds`): the writes a test starts meet a conflict for certain.
 * `turnedAway` counts the requests it made fail; `release` answers the count at the end.
 */
export async function holdItem(key: { PK: string; SK: string }) {
  const holds = `${stack().urls.dynamodb}/_local/holds`;
  const placed = await fetch(holds, {
    method: 'POST',
    body: JSON.stringify({ TableName: testTable().tableName, Key: { PK: { S: key.PK }, SK: { S: key.SK } } }),
  });
  if (placed.status !== 201) throw new Error(`The table did not hold ${key.PK} ${key.SK}: ${await placed.text()}`);
  const { id } = (await placed.json()) as { id: string };
  const count = async (method: 'GET' | 'DELETE') =>
    ((await (await fetch(`${holds}/${id}`, { method })).json()) as { turnedAway: number }).turnedAway;
  return { turnedAway: () => count('GET'), release: () => count('DELETE') };
}
