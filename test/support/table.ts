import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
