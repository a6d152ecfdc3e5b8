import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { dynamoDbClient } from '../../local/dynamodb';

/** The stand-ins project's DynamoDB Local (test/support/stand-ins-setup.ts), which the files share. */
export function dynamoDbLocal() {
  const endpoint = inject('dynamoDbLocal');
  return { endpoint, client: dynamoDbClient(endpoint) };
}

/**
 * A table name of the file's own: the other files work in the same DynamoDB Local at the same time,
 * and in watch mode it keeps the tables of the file's earlier runs.
 */
export const ownTable = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
