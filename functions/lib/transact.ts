import { type CancellationReason, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './db';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * An item with a name: a cancelled transaction's reasons come back in the order of its items, and
 * a name reads them without counting positions (which shift when an item is added before it).
 */
export interface NamedItem<N extends string> {
  name: N;
  item: TransactItem;
}

export const named = <N extends string>(name: N, item: TransactItem): NamedItem<N> => ({ name, item });

export type TransactResult<N extends string = never> =
  | { written: true }
  | {
      written: false;
      /** In the order of the items (empty when DynamoDB gave none). */
      reasons: CancellationReason[];
      /** To rethrow as is. */
      error: TransactionCanceledException;
      /** Whether the named item's condition did not hold. */
      failed: (name: N) => boolean;
    };

const isNamed = (entry: TransactItem | NamedItem<string>): entry is NamedItem<string> => 'item' in entry && 'name' in entry;

/**
 * Writes the items all or none. A cancelled transaction is an answer, not an error; any other error
 * is thrown.
 */
export async function transact<N extends string = never>(
  entries: readonly (TransactItem | NamedItem<N>)[],
): Promise<TransactResult<N>> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: entries.map((e) => (isNamed(e) ? e.item : e)) }));
    return { written: true };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const failed = (name: N) => {
      const index = entries.findIndex((e) => isNamed(e) && e.name === name);
      return index >= 0 && reasons[index]?.Code === 'ConditionalCheckFailed';
    };
    return { written: false, reasons, error, failed };
  }
}
