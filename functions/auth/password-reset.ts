import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PASSWORD_RESET_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { AppError } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import { transact } from '../lib/transact';
import type { UserRecord } from './accounts';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens';

/** Expired links are kept a day longer, so a late click is told "expired" rather than "invalid". */
const KEEP_EXPIRED_SECONDS = 24 * 60 * 60;

/**
 * A new reset link for the user: it replaces their previous one (deleted), so only the latest mail's
 * link works. False when the user was removed meanwhile (no mail is due then).
 */
export async function newPasswordReset(user: UserRecord, now = epochSeconds()): Promise<string | undefined> {
  const { token, hash } = newOpaqueToken();
  const validUntil = now + PASSWORD_RESET_TOKEN_TTL_SECONDS;
  const TableName = tableName();
  const result = await transact([
    {
      Update: {
        TableName,
        Key: keys.user(user.companyId, user.id),
        UpdateExpression: 'SET passwordResetHash = :hash',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt)',
        ExpressionAttributeValues: { ':hash': hash },
      },
    },
    ...(user.passwordResetHash ? [{ Delete: { TableName, Key: keys.passwordReset(user.passwordResetHash) } }] : []),
    {
      Put: {
        TableName,
        Item: {
          ...keys.passwordReset(hash),
          entity: 'PASSWORD_RESET',
          companyId: user.companyId,
          userId: user.id,
          validUntil,
          expiresAt: validUntil + KEEP_EXPIRED_SECONDS,
        },
      },
    },
  ]);
  return result.written ? token : undefined;
}

const invalidLink = () =>
  new AppError(400, 'INVALID_TOKEN', 'This password reset link is invalid or has already been used. Ask for a new one.');

/**
 * The user a reset token names, while it is valid: read before the new password is hashed, so a dead
 * link costs no hash.
 */
export async function passwordResetOf(token: string, now = epochSeconds()): Promise<{ companyId: string; userId: string }> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.passwordReset(hashOpaqueToken(token)), ConsistentRead: true }),
  );
  if (!Item) throw invalidLink();
  if (Number(Item.validUntil) < now) {
    throw new AppError(400, 'INVALID_TOKEN', 'This password reset link has expired. Ask for a new one.');
  }
  return { companyId: Item.companyId, userId: Item.userId };
}

/**
 * Spends the token and sets the password in one transaction, so a link works once even when used twice
 * at the same moment, and only the user's latest link, while they are a member. `owner` is what
 * passwordResetOf read for the token.
 */
export async function spendPasswordReset(
  token: string,
  { companyId, userId }: { companyId: string; userId: string },
  passwordHash: string,
): Promise<void> {
  const hash = hashOpaqueToken(token);
  const TableName = tableName();
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName, Key: keys.passwordReset(hash), ConditionExpression: 'attribute_exists(PK)' } },
          {
            Update: {
              TableName,
              Key: keys.user(companyId, userId),
              UpdateExpression: 'SET passwordHash = :password REMOVE passwordResetHash',
              ConditionExpression: 'passwordResetHash = :hash AND attribute_not_exists(removedAt)',
              ExpressionAttributeValues: { ':password': passwordHash, ':hash': hash },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      // A replaced link, or a removed member's: of no use to anyone.
      await db.send(new DeleteCommand({ TableName, Key: keys.passwordReset(hash) }));
      throw invalidLink();
    }
    throw error;
  }
}
