import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  MAX_SOCKETS_PER_USER,
  REALTIME_TICKET_LIMIT,
  REALTIME_TICKET_TTL_SECONDS,
  REALTIME_TICKET_WINDOW_SECONDS,
} from '../../shared/constants';
import type { RealtimeTicket } from '../../shared/contract/realtime';
import type { Principal } from '../auth/access-tokens';
import { getActiveUser } from '../auth/accounts';
import { hashOpaqueToken, newOpaqueToken } from '../auth/opaque-tokens';
import { unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import { consume, type Limit } from '../lib/throttle';
import { openSocketCount, tooManyConnections } from './connections';

/** Who a redeemed ticket lets in: the socket's user, company and sign-in session. */
export interface TicketHolder {
  userId: string;
  companyId: string;
  name: string;
  sessionId: string;
  /** Epoch seconds when the sign-in session (refresh-token family) ends; the socket must not outlive it. */
  sessionExpiresAt: number;
}

/** Tickets per user: a tab takes one per (re)connect, with back-off; far more is a script. */
const TICKETS: Limit = {
  bucket: 'REALTIME_TICKET',
  limit: REALTIME_TICKET_LIMIT,
  windowSeconds: REALTIME_TICKET_WINDOW_SECONDS,
  message: (m) => `Too many connection attempts. Please try again in ${m} minute${m === 1 ? '' : 's'}.`,
};

const sessionEnded = () => unauthorized('Your session has ended. Please sign in again.', 'SESSION_ENDED');

/**
 * A ticket for one socket: 128-bit random, stored only as its SHA-256, valid 30 seconds, usable once.
 * It carries the session, so signing out or the session's end closes the socket it opened. Throttled
 * per user, and refused while the user has MAX_SOCKETS_PER_USER sockets open.
 */
export async function issueTicket(principal: Principal): Promise<RealtimeTicket> {
  const TableName = tableName();
  // defineHandler has read the stored session for this request (a revoked or expired one is refused there).
  const sessionExpiresAt = principal.sessionExpiresAt;
  if (!sessionExpiresAt || sessionExpiresAt <= epochSeconds()) throw sessionEnded();
  const user = await getActiveUser(principal.companyId, principal.userId);
  if (!user) throw unauthorized('This account no longer exists.');

  await consume(TICKETS, `${principal.companyId}#${principal.userId}`);
  // The upgrade enforces the limit (connections.ts); refusing here says why, which a browser's
  // WebSocket cannot tell from a refused upgrade.
  if ((await openSocketCount(principal.companyId, principal.userId)) >= MAX_SOCKETS_PER_USER) throw tooManyConnections();

  const { token, hash } = newOpaqueToken();
  const expiresAt = epochSeconds() + REALTIME_TICKET_TTL_SECONDS;
  const holder: TicketHolder = {
    userId: user.id,
    companyId: user.companyId,
    name: user.name,
    sessionId: principal.sessionId,
    sessionExpiresAt,
  };
  await db.send(
    new PutCommand({ TableName, Item: { ...keys.realtimeTicket(hash), entity: 'REALTIME_TICKET', ...holder, expiresAt } }),
  );
  return { ticket: token, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/** Spends a ticket: the delete is the single use, so two sockets racing with one ticket get one yes. */
export async function redeemTicket(ticket: string): Promise<TicketHolder | undefined> {
  try {
    const { Attributes: item } = await db.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.realtimeTicket(hashOpaqueToken(ticket)),
        ConditionExpression: 'attribute_exists(PK)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    if (!item || Number(item.expiresAt) < epochSeconds()) return undefined;
    return {
      userId: item.userId,
      companyId: item.companyId,
      name: item.name,
      sessionId: item.sessionId,
      sessionExpiresAt: Number(item.sessionExpiresAt),
    };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
