import type { TestProject } from 'vitest/node';
import { startDynamoDb } from '../../local/dynamodb';
import { quietLogger } from '../../local/log';
import { freePort } from '../../local/ports';

let stop: (() => Promise<void>) | undefined;

/**
 * One DynamoDB Local, in memory, for the stand-ins project (vitest.config.ts): its files share it, each
 * in tables of its own (test/support/dynamodb-local.ts), rather than each starting a JVM of its own.
 */
export async function setup(project: TestProject) {
  const dynamo = await startDynamoDb({ port: await freePort(), log: quietLogger });
  stop = dynamo.stop;
  project.provide('dynamoDbLocal', dynamo.endpoint);
}

export async function teardown() {
  await stop?.();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The endpoint of the stand-ins project's DynamoDB Local. */
    dynamoDbLocal: string;
  }
}
