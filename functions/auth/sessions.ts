import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../shared/constants';
import type { Tokens } from '../../shared/contract/auth';
import { unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import { issueAccessToken } from './access-tokens';
import { toUser, type UserRecord } from './accounts';
import { hashOpaqueToken, newId, newOpaqueToken } from './opaque-tokens';

/**
 * Refresh tokens belong to a family that starts at sign-in. Every refresh spends the presented token
 * and issues the next one; presenting a spent token means it was copied, so the whole family is
 * revoked. A family ends 30 days after sign-in however often it is used.
 */
export async function startSession(user: UserRecord): Promise<Tokens> {
  const familyId = newId();
  const familyExpiresAt = epochSeconds() + REFRESH_TOKEN_TTL_SECONDS;
  const refresh = newOpaqueToken();
  const TableName = tableName();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName,
            Item: {
              ...keys.refreshFamily(familyId),
              entity: 'REFRESH_FAMILY',
              companyId: user.companyId,
              userId: user.id,
              revoked: false,
              expiresAt: familyExpiresAt,
            },
          },
        },
        { Put: { TableName, Item: refreshItem(refresh.hash, user, familyId, familyExpiresAt) } },
      ],
    }),
  );
  return { accessToken: await accessTokenFor(user, familyId), refreshToken: refresh.token };
}

function refreshItem(hash: string, user: Pick<UserRecord, 'companyId' | 'id'>, familyId: string, familyExpiresAt: number) {
  return {
    ...keys.refreshToken(hash),
    entity: 'REFRESH_TOKEN',
    companyId: user.companyId,
    userId: user.id,
    familyId,
    spent: false,
    expiresAt: familyExpiresAt,
  };
}

function accessTokenFor(user: UserRecord, sessionId: string): Promise<string> {
  return issueAccessToken({
    userId: user.id,
    companyId: user.companyId,
    isPlatformAdmin: toUser(user).isPlatformAdmin,
    role: user.role,
    sessionId,
  });
}

const invalidRefresh = () => unauthorized('Your session has expired. Please sign in again.', 'INVALID_TOKEN');

export async function rotateRefreshToken(
  presented: string,
  loadUser: (companyId: string, userId: string) => Promise<UserRecord | undefined>,
): Promise<{ tokens: Tokens; user: UserRecord }> {
  const TableName = tableName();
  const hash = hashOpaqueToken(presented);
  const { Item: token } = await db.send(new GetCommand({ TableName, Key: keys.refreshToken(hash), ConsistentRead: true }));
  if (!token || Number(token.expiresAt) < epochSeconds()) throw invalidRefresh();
  const { Item: family } = await db.send(
    new GetCommand({ TableName, Key: keys.refreshFamily(token.familyId), ConsistentRead: true }),
  );
  if (!family || family.revoked) throw invalidRefresh();
  if (token.spent) {
    await revokeFamily(token.familyId);
    throw unauthorized(
      'This session was ended because its refresh token was used twice. Please sign in again.',
      'REFRESH_TOKEN_REUSED',
    );
  }
  const user = await loadUser(token.companyId, token.userId);
  if (!user) throw invalidRefresh();

  const next = newOpaqueToken();
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: keys.refreshToken(hash),
              UpdateExpression: 'SET spent = :true, spentAt = :now',
              ConditionExpression: 'spent = :false',
              ExpressionAttributeValues: { ':true': true, ':false': false, ':now': new Date().toISOString() },
            },
          },
          {
            ConditionCheck: {
              TableName,
              Key: keys.refreshFamily(token.familyId),
              ConditionExpression: 'revoked = :false',
              ExpressionAttributeValues: { ':false': false },
            },
          },
          { Put: { TableName, Item: refreshItem(next.hash, user, token.familyId, Number(family.expiresAt)) } },
        ],
      }),
    );
  } catch (error) {
    // Another request spent the same token first: the same reuse, so the same answer.
    if (error instanceof TransactionCanceledException) {
      await revokeFamily(token.familyId);
      throw unauthorized(
        'This session was ended because its refresh token was used twice. Please sign in again.',
        'REFRESH_TOKEN_REUSED',
      );
    }
    throw error;
  }
  return { tokens: { accessToken: await accessTokenFor(user, token.familyId), refreshToken: next.token }, user };
}

async function revokeFamily(familyId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.refreshFamily(familyId),
      UpdateExpression: 'SET revoked = :true, revokedAt = :now',
      ExpressionAttributeValues: { ':true': true, ':now': new Date().toISOString() },
    }),
  );
}
