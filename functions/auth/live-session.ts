import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import type { Principal } from './access-tokens';

// Its own module so that every signed-in route's read of its session reaches neither token signing
// nor the @connections client (functions/routes.test.ts holds each route to what it reaches).
const sessionEnded = () => unauthorized('Your session has ended. Please sign in again.', 'SESSION_ENDED');

/**
 * The sign-in session an access token was issued for, read on every authenticated request
 * (docs/security.md: Sessions): once it is revoked (sign-out, sign-out everywhere, a reused refresh token) or past its
 * 30 days, the token is refused at once rather than for the rest of its 15 minutes. One strongly
 * consistent GetItem, so a revocation that has returned is seen by the very next request. Returns
 * when the session ends (epoch seconds).
 */
export async function liveSession(principal: Pick<Principal, 'companyId' | 'userId' | 'sessionId'>): Promise<number> {
  const { Item: family } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.refreshFamily(principal.sessionId),
      ConsistentRead: true,
      ProjectionExpression: 'companyId, userId, revoked, expiresAt',
    }),
  );
  if (!family) throw sessionEnded();
  const expiresAt = Number(family.expiresAt);
  if (
    family.revoked !== false ||
    family.companyId !== principal.companyId ||
    family.userId !== principal.userId ||
    !(expiresAt > epochSeconds())
  ) {
    throw sessionEnded();
  }
  return expiresAt;
}
