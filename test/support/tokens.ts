import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, SignJWT } from 'jose';
import { hashOpaqueToken } from '../../functions/auth/opaque-tokens';
import { keys } from '../../functions/lib/table';
import { REFRESH_GRACE_SECONDS } from '../../shared/constants';
import { stack } from './api';
import { testTable } from './table';

/**
 * The access token with some claims changed and the rest (subject, expiry…) kept, signed with the
 * stack's key: a token the server itself issued at another moment, e.g. before the operator named
 * or stopped naming a platform administrator.
 */
export function withClaims(accessToken: string, claims: Record<string, unknown>): Promise<string> {
  const { iat, exp, ...kept } = decodeJwt(accessToken);
  return new SignJWT({ ...kept, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(iat)
    .setExpirationTime(exp ?? '15m')
    .sign(new TextEncoder().encode(stack().env.JWT_SECRET));
}

/** Moves a spent token's spending time back beyond the grace period, as if 11 seconds had passed. */
export async function spentLongAgo(refreshToken: string) {
  const { client, tableName } = testTable();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.refreshToken(hashOpaqueToken(refreshToken)),
      UpdateExpression: 'SET spentAtMs = spentAtMs - :grace',
      ConditionExpression: 'spent = :true',
      ExpressionAttributeValues: { ':grace': (REFRESH_GRACE_SECONDS + 1) * 1000, ':true': true },
    }),
  );
}
