import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type NamedItem, named, type TransactItem } from '../lib/transact';
import type { UserRecord } from './accounts';

/**
 * Who holds an e-mail address. A verified account keeps it; an account nobody verified (anyone can
 * register any address) gives it up to whoever proves the address next, by a verified registration
 * or an accepted invitation, so a stranger can never hold someone's address hostage.
 */
export interface AddressClaim {
  /** A verified account holds the address. */
  taken: boolean;
  /** items() removes an unverified account, and its company, that held the address. */
  replacesAccount: boolean;
  /**
   * Transaction items that give the address to a new user: the uniqueness item, conditioned on what
   * was read (so a concurrent claim fails the transaction), and the removal of the unverified account
   * that held it. The uniqueness item is named `address`.
   */
  items: (next: { companyId: string; userId: string }) => (TransactItem | NamedItem<'address'>)[];
}

export async function readAddress(email: string): Promise<AddressClaim> {
  const TableName = tableName();
  const { Item: owner } = await db.send(new GetCommand({ TableName, Key: keys.email(email), ConsistentRead: true }));
  const holder = owner
    ? ((await db.send(new GetCommand({ TableName, Key: keys.user(owner.companyId, owner.userId), ConsistentRead: true }))).Item as
        | UserRecord
        | undefined)
    : undefined;
  return {
    taken: holder?.emailVerified === true,
    replacesAccount: holder !== undefined,
    items: ({ companyId, userId }) => [
      named('address', {
        Put: {
          TableName,
          Item: { ...keys.email(email), entity: 'EMAIL', companyId, userId },
          ...(owner
            ? { ConditionExpression: 'userId = :previous', ExpressionAttributeValues: { ':previous': owner.userId } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      }),
      ...(holder
        ? [
            {
              Delete: {
                TableName,
                Key: keys.user(holder.companyId, holder.id),
                ConditionExpression: 'emailVerified = :false',
                ExpressionAttributeValues: { ':false': false },
              },
            },
            { Delete: { TableName, Key: keys.company(holder.companyId) } },
            ...(holder.verificationHash ? [{ Delete: { TableName, Key: keys.verification(holder.verificationHash) } }] : []),
          ]
        : []),
    ],
  };
}
