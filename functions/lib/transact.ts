import { type CancellationReason, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './db';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export type TransactResult =
  | { written: true }
  /** Cancelled: `reasons` in the order of the items (empty when DynamoDB gave none); `error` to rethrow as is. */
  | { written: false; reasons: CancellationReason[]; error: TransactionCanceledException };

/** Writes the items all or none. A cancelled transaction is an answer, not an error; any other error is thrown. */
export async function transact(items: TransactItem[]): Promise<TransactResult> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return { written: true };
  } catch (error) {
    if (error instanceof TransactionCanceledException) return { written: false, reasons: error.CancellationReasons ?? [], error };
    throw error;
  }
}
