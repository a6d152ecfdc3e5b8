import { createHmac } from 'node:crypto';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REFRESH_GRACE_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../../shared/constants';
import type { Tokens } from '../../shared/contract/auth';
import { unauthorized } from '../lib/app-error';
import { setting, tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { epochSeconds, keys } from '../lib/table';
import { named, transact } from '../lib/transact';
import { issueAccessToken } from './access-tokens';
import { toUser, type UserRecord } from './accounts';
import { hashOpaqueToken, newId, newOpaqueToken } from './opaque-tokens';
import { removalOf } from './removed-members';

/**
 * Refresh tokens belong to a family (a sign-in session) that starts at sign-in. Every refresh spends
 * the presented token and issues the next one. For a few seconds the spent token still answers with
 * the same successor (two tabs refreshing at once); after that, presenting it means it was copied, so
 * the whole family is revoked. A family ends 30 days after sign-in however often it is used.
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
        {
          Put: {
            TableName,
            Item: {
              ...keys.userSession(user.companyId, user.id, familyId),
              entity: 'USER_SESSION',
              familyId,
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

/**
 * The token that follows `presented`: derived from it with a server key, so a refresh in the grace
 * period can answer with the same successor while only hashes of refresh tokens are ever stored.
 */
async function successorOf(presented: string): Promise<{ token: string; hash: string }> {
  const key = createHmac('sha256', await setting('JWT_SECRET'))
    .update('refresh-token-successor')
    .digest();
  const token = createHmac('sha256', key).update(presented).digest().subarray(0, 16).toString('base64url');
  return { token, hash: hashOpaqueToken(token) };
}

const invalidRefresh = () => unauthorized('Your session has expired. Please sign in again.', 'INVALID_TOKEN');

/** A removed member's tab is told so rather than "session expired" (docs/product.md: Removed members). */
const refused = async (companyId: string, userId: string) => (await removalOf(companyId, userId)) ?? invalidRefresh();

const reused = () =>
  unauthorized('This session was ended because its refresh token was used twice. Please sign in again.', 'REFRESH_TOKEN_REUSED');

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
  if (!family || family.revoked) throw await refused(token.companyId, token.userId);
  const user = await loadUser(token.companyId, token.userId);
  if (!user) throw await refused(token.companyId, token.userId);
  const next = await successorOf(presented);
  const answer = async () => ({
    tokens: { accessToken: await accessTokenFor(user, token.familyId), refreshToken: next.token },
    user,
  });

  if (token.spent) {
    if (withinGrace(token.spentAtMs)) return answer();
    await revokeSession(token.companyId, token.userId, token.familyId);
    throw reused();
  }
  const result = await transact([
    {
      Update: {
        TableName,
        Key: keys.refreshToken(hash),
        UpdateExpression: 'SET spent = :true, spentAtMs = :now',
        ConditionExpression: 'spent = :false',
        ExpressionAttributeValues: { ':true': true, ':false': false, ':now': Date.now() },
      },
    },
    named('family', {
      ConditionCheck: {
        TableName,
        Key: keys.refreshFamily(token.familyId),
        ConditionExpression: 'revoked = :false',
        ExpressionAttributeValues: { ':false': false },
      },
    }),
    { Put: { TableName, Item: refreshItem(next.hash, user, token.familyId, Number(family.expiresAt)) } },
  ]);
  // Revoked meanwhile: the session is over. Spent meanwhile by a parallel refresh: the same successor.
  if (!result.written && result.failed('family')) throw invalidRefresh();
  return answer();
}

function withinGrace(spentAtMs: unknown): boolean {
  return typeof spentAtMs === 'number' && Date.now() - spentAtMs <= REFRESH_GRACE_SECONDS * 1000;
}

/** Ends one sign-in session: its refresh tokens stop working and its open sockets close. */
async function revokeSession(companyId: string, userId: string, familyId: string): Promise<void> {
  await revokeFamily(companyId, userId, familyId);
  await (await realtime()).disconnectUser(companyId, userId, familyId);
}

/** Loaded when a session ends, so signing in and refreshing never load the @connections client. */
const realtime = () => import('../realtime/publish');

async function revokeFamily(companyId: string, userId: string, familyId: string): Promise<void> {
  const TableName = tableName();
  await Promise.all([
    db.send(
      new UpdateCommand({
        TableName,
        Key: keys.refreshFamily(familyId),
        UpdateExpression: 'SET revoked = :true, revokedAt = :now',
        ExpressionAttributeValues: { ':true': true, ':now': new Date().toISOString() },
      }),
    ),
    db.send(new DeleteCommand({ TableName, Key: keys.userSession(companyId, userId, familyId) })),
  ]);
}

/**
 * Sign-out: ends the session the refresh token belongs to. Unknown or spent-long-ago tokens change
 * nothing. True when the token named a session.
 */
export async function endSession(refreshToken: string): Promise<boolean> {
  const { Item: token } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.refreshToken(hashOpaqueToken(refreshToken)), ConsistentRead: true }),
  );
  if (!token) return false;
  await revokeSession(token.companyId, token.userId, token.familyId);
  return true;
}

/** Sign-out everywhere: every session of the user, found with one Query of their session list. */
export async function endAllSessions(companyId: string, userId: string): Promise<number> {
  const sessions = await queryPrefix<{ familyId: string }>(keys.userSessionsOf(companyId, userId), {
    projection: 'familyId',
    consistent: true,
  });
  const familyIds = sessions.map((s) => s.familyId);
  await Promise.all(familyIds.map((familyId) => revokeFamily(companyId, userId, familyId)));
  await (await realtime()).disconnectUser(companyId, userId);
  return familyIds.length;
}

/** Every session of the user but `keep` (the one changing the password): their tokens and sockets end. */
export async function endOtherSessions(companyId: string, userId: string, keep: string): Promise<number> {
  const sessions = await queryPrefix<{ familyId: string }>(keys.userSessionsOf(companyId, userId), {
    projection: 'familyId',
    consistent: true,
  });
  const others = sessions.map((s) => s.familyId).filter((familyId) => familyId !== keep);
  await Promise.all(others.map((familyId) => revokeSession(companyId, userId, familyId)));
  return others.length;
}
