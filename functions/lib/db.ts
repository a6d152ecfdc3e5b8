import { randomUUID } from 'node:crypto';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withBackoff } from './backoff';

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

interface ServiceError {
  name?: string;
  CancellationReasons?: { Code?: string }[];
}

/**
 * A transaction cancelled only because another one held its items (reasons `TransactionConflict`
 * and `None`): nothing of it was applied, so it may simply run again. Any other reason (a condition
 * that failed, a validation error) is an answer for the caller.
 */
export function cancelledByConflictOnly(error: unknown): boolean {
  const { name, CancellationReasons: reasons = [] } = (error ?? {}) as ServiceError;
  return (
    name === 'TransactionCanceledException' &&
    reasons.some((r) => r.Code === 'TransactionConflict') &&
    reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None')
  );
}

const errorName = (error: unknown) => (error as ServiceError | undefined)?.name;

/**
 * Transaction conflicts, which the SDK's retry strategy does not retry (a 400 it does not classify as
 * throttling or transient), met on the table client's stack so that every send gets the same
 * handling (DynamoDB developer guide, "Transaction conflict handling"):
 *
 * - a request answered `TransactionConflictException` was not applied and is sent again (DynamoDB
 *   answers it only to PutItem/UpdateItem/DeleteItem/BatchWriteItem while a transaction holds their item);
 * - a transaction cancelled by conflicts only is sent again, a TransactWriteItems with a fresh
 *   `ClientRequestToken`: the token makes the SDK's own transport retries of one attempt idempotent
 *   (DynamoDB answers a repeat of a committed request with success for 10 minutes, without applying
 *   it again), while a cancelled attempt applied nothing and the next is a new request;
 * - `TransactionInProgressException` (a repeat arrived while its first attempt still runs) is sent
 *   again with the same token, which answers the first attempt's outcome.
 *
 * Pauses follow the one back-off rule (lib/backoff.ts) within the function's deadline; when it leaves
 * no room, the last error reaches the caller as it did before. Middleware on the stack rather than a
 * wrapper around `send`, so that no module can bypass it, the document client's commands and the
 * low-level ones alike.
 *
 * Deployed functions run the AWS SDK of the Lambda runtime, not the one the tests run
 * (docs/architecture.md: How the functions meet contention). So this reads only what the SDK
 * documents and keeps across versions: `middlewareStack.add` at the `initialize` step, the command's
 * `input` (a write transaction is told apart by its items), and the modelled errors' `name` and
 * `CancellationReasons`; never the handler context (its `commandName` among others).
 */
export function retryConflicts(client: Pick<DynamoDBClient, 'middlewareStack'>): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as TransactionInput;
      const writeTransaction = isWriteTransaction(input);
      let token = writeTransaction ? (input.ClientRequestToken ?? randomUUID()) : undefined;
      return withBackoff(
        async () => {
          try {
            return await next(token ? { ...args, input: { ...input, ClientRequestToken: token } } : args);
          } catch (error) {
            if (writeTransaction && cancelledByConflictOnly(error)) token = randomUUID();
            throw error;
          }
        },
        (e) =>
          errorName(e) === 'TransactionConflictException' ||
          cancelledByConflictOnly(e) ||
          (writeTransaction && errorName(e) === 'TransactionInProgressException'),
      );
    },
    { step: 'initialize', name: 'retryTransactionConflicts', override: true },
  );
}

interface TransactionInput {
  TransactItems?: Record<string, unknown>[];
  ClientRequestToken?: string;
}

/** A TransactWriteItems: its items are Put, Update, Delete or ConditionCheck, where a TransactGetItems' are Get. */
export function isWriteTransaction(input: TransactionInput | undefined): boolean {
  const items = input?.TransactItems;
  return Array.isArray(items) && items.length > 0 && items.every((item) => !('Get' in item));
}

/** One client per container, created at cold start. DYNAMODB_ENDPOINT points it at DynamoDB Local. */
const client = new DynamoDBClient({
  ...TABLE_CLIENT_RETRY,
  ...(process.env.DYNAMODB_ENDPOINT ? { endpoint: process.env.DYNAMODB_ENDPOINT } : {}),
});
retryConflicts(client);

export const db = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
