import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * How the table client meets throttling (ProvisionedThroughputExceeded, ThrottlingException) and
 * transient faults: the SDK's standard retry strategy (exponential back-off with full jitter, 500 ms
 * base for throttling) up to 4 attempts in all — worst case about 3.5 s of waiting, well inside the
 * 10 s of a route. Then the error reaches the handler and answers 503 (define-handler).
 */
export const TABLE_CLIENT_RETRY: Pick<DynamoDBClientConfig, 'maxAttempts' | 'retryMode'> = {
  maxAttempts: 4,
  retryMode: 'standard',
};

/** One client per container, created at cold start. DYNAMODB_ENDPOINT points it at DynamoDB Local. */
export const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    ...TABLE_CLIENT_RETRY,
    ...(process.env.DYNAMODB_ENDPOINT ? { endpoint: process.env.DYNAMODB_ENDPOINT } : {}),
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);
