import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  MAX_ROOMS_PER_CONNECTION,
  MAX_SOCKETS_PER_USER,
  PHONE_RELOAD_GRACE_SECONDS,
  SOCKET_CONNECTION_TTL_SECONDS,
} from '../../shared/constants';
import { AppError } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { epochSeconds, keys } from '../lib/table';
import { named, transact } from '../lib/transact';

export interface Connection {
  connectionId: string;
  companyId: string;
  userId: string;
  /** The sign-in session (refresh-token family) the socket was opened under; signing out closes it. */
  sessionId: string;
  /** ISO time $connect stored it (absent on connections listed from before it was recorded). */
  connectedAt?: string;
}

/** The registry entry as stored: who, since when, last heartbeat, and the rooms it joined. */
export interface StoredConnection extends Connection {
  name: string;
  sessionExpiresAt: number;
  connectedAt: string;
  /** Epoch milliseconds of the last heartbeat (or of the connect). */
  lastSeenAt: number;
  rooms: ReadonlySet<string>;
}

export type NewConnection = Omit<StoredConnection, 'connectedAt' | 'lastSeenAt' | 'rooms'>;

export const tooManyConnections = () =>
  new AppError(
    429,
    'TOO_MANY_CONNECTIONS',
    `You have ${MAX_SOCKETS_PER_USER} live connections open (tabs or windows). Close one to connect here.`,
    // About when a closed tab's socket is gone; the tab backs off meanwhile (web/src/lib/realtime).
    { retryAfterSeconds: 30 },
  );

/**
 * Three items: the company's list entry, the owner entry that $disconnect finds by id alone, and the
 * id in the user's set of sockets, which takes it only while it holds fewer than MAX_SOCKETS_PER_USER:
 * one transaction, so racing upgrades cannot open more. Throws `tooManyConnections` at the limit.
 */
export async function saveConnection(c: NewConnection): Promise<StoredConnection> {
  const TableName = tableName();
  const now = new Date();
  // API Gateway closes a socket after 2 hours at the latest: the entry never needs to live longer.
  const expiresAt = epochSeconds(now) + SOCKET_CONNECTION_TTL_SECONDS;
  const stored = { ...c, connectedAt: now.toISOString(), lastSeenAt: now.getTime() };
  const write = () =>
    transact([
      {
        Put: {
          TableName,
          Item: { ...keys.connection(c.companyId, c.connectionId), entity: 'CONNECTION', ...stored, expiresAt },
        },
      },
      { Put: { TableName, Item: { ...keys.connectionOwner(c.connectionId), entity: 'CONNECTION_OWNER', ...c, expiresAt } } },
      named('userSockets', {
        Update: {
          TableName,
          Key: keys.userSockets(c.companyId, c.userId),
          UpdateExpression: 'ADD connectionIds :id SET entity = :entity',
          ConditionExpression: 'attribute_not_exists(connectionIds) OR size(connectionIds) < :max',
          ExpressionAttributeValues: {
            ':id': new Set([c.connectionId]),
            ':max': MAX_SOCKETS_PER_USER,
            ':entity': 'USER_SOCKETS',
          },
        },
      }),
    ]);
  let result = await write();
  // At the limit: sockets that ended without $disconnect (expired, swept) may still be counted.
  if (!result.written && result.failed('userSockets') && (await forgetClosedSockets(c.companyId, c.userId)) > 0)
    result = await write();
  if (!result.written) {
    if (result.failed('userSockets')) throw tooManyConnections();
    throw result.error;
  }
  return { ...stored, rooms: new Set() };
}

/**
 * How many sockets the user has open, after forgetting those the registry no longer knows (ended
 * without $disconnect: expired, swept as lapsed). The ticket route asks it to refuse early and clearly.
 */
export async function openSocketCount(companyId: string, userId: string): Promise<number> {
  const ids = await userSocketIds(companyId, userId);
  if (ids.length < MAX_SOCKETS_PER_USER) return ids.length;
  return ids.length - (await forgetClosedSockets(companyId, userId, ids));
}

async function userSocketIds(companyId: string, userId: string): Promise<string[]> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.userSockets(companyId, userId), ConsistentRead: true }),
  );
  return [...((Item?.connectionIds as Set<string> | undefined) ?? [])];
}

/** Removes from the user's set the ids without a live owner entry; answers how many it removed. */
async function forgetClosedSockets(companyId: string, userId: string, known?: string[]): Promise<number> {
  const TableName = tableName();
  const ids = known ?? (await userSocketIds(companyId, userId));
  if (!ids.length) return 0;
  // At most MAX_SOCKETS_PER_USER ids (+ racing ones): one batch of 100 keys holds them.
  const { Responses, UnprocessedKeys } = await db.send(
    new BatchGetCommand({
      RequestItems: { [TableName]: { Keys: ids.map((id) => keys.connectionOwner(id)), ConsistentRead: true } },
    }),
  );
  if (UnprocessedKeys?.[TableName]) return 0;
  const live = new Set(
    (Responses?.[TableName] ?? []).filter((item) => Number(item.expiresAt) > epochSeconds()).map((item) => item.connectionId),
  );
  const closed = ids.filter((id) => !live.has(id));
  if (closed.length) await forgetSocketIds(companyId, userId, closed);
  return closed.length;
}

async function forgetSocketIds(companyId: string, userId: string, ids: readonly string[]): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.userSockets(companyId, userId),
      UpdateExpression: 'DELETE connectionIds :ids',
      ExpressionAttributeValues: { ':ids': new Set(ids) },
    }),
  );
}

/** The owner entry: enough to know whose a socket is and under which session it runs. */
export async function findConnection(connectionId: string): Promise<NewConnection | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.connectionOwner(connectionId) }));
  if (!Item || Number(Item.expiresAt) <= epochSeconds()) return undefined;
  return {
    connectionId,
    companyId: Item.companyId,
    userId: Item.userId,
    name: Item.name,
    sessionId: Item.sessionId,
    sessionExpiresAt: Number(Item.sessionExpiresAt),
  };
}

/**
 * The socket closed (`$disconnect`): removes its entries; answers the removed connection (and whether
 * its phone was reachable until now), or undefined when it was already gone. Its phone still counts
 * for a call's ring for PHONE_RELOAD_GRACE_SECONDS: a reloading tab's new socket has not said yet
 * that its phone is registered (docs/product.md §10.5 Phone ready).
 */
export async function removeConnection(connectionId: string): Promise<(Connection & { phoneWasReady: boolean }) | undefined> {
  const owner = await findConnection(connectionId);
  if (!owner) return undefined;
  const phoneWasReady = await removeCompanyConnection(owner, { reloadGrace: true });
  return { ...owner, phoneWasReady };
}

/**
 * Removes the connection's entries, its phone's reachability (functions/realtime/phones.ts) and its id
 * from its user's set of sockets. Answers whether its phone was reachable until now. With
 * `reloadGrace` the phone's item stays, closed, until the grace ends; without it (signed out, removed,
 * session ended) it goes at once.
 */
export async function removeCompanyConnection(c: Connection, options: { reloadGrace?: boolean } = {}): Promise<boolean> {
  const TableName = tableName();
  const [, , phoneWasReady] = await Promise.all([
    db.send(new DeleteCommand({ TableName, Key: keys.connection(c.companyId, c.connectionId) })),
    db.send(new DeleteCommand({ TableName, Key: keys.connectionOwner(c.connectionId) })),
    options.reloadGrace ? closePhone(c) : forgetPhone(c),
    forgetSocketIds(c.companyId, c.userId, [c.connectionId]),
  ]);
  return phoneWasReady;
}

async function forgetPhone(c: Connection): Promise<boolean> {
  const { Attributes } = await db.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: keys.phoneReady(c.companyId, c.userId, c.connectionId),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Number(Attributes?.expiresAt) > epochSeconds() && Attributes?.closedAt === undefined;
}

/** Marks a ready phone's socket closed, reachable for a call's ring until the reload grace ends. */
async function closePhone(c: Connection): Promise<boolean> {
  const now = epochSeconds();
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.phoneReady(c.companyId, c.userId, c.connectionId),
        UpdateExpression: 'SET closedAt = :now, expiresAt = :graceEnd',
        ConditionExpression: 'expiresAt > :now AND attribute_not_exists(closedAt)',
        ExpressionAttributeValues: { ':now': now, ':graceEnd': now + PHONE_RELOAD_GRACE_SECONDS },
      }),
    );
    return true;
  } catch (error) {
    // No report, or one that had lapsed: nothing was reachable to keep.
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Removes a connection only if it has not beaten since `lastSeenAt`: a heartbeat racing the sweep of
 * lapsed sockets wins. True when this call removed it.
 */
export async function removeLapsedConnection(c: StoredConnection): Promise<boolean> {
  const TableName = tableName();
  const result = await transact([
    {
      Delete: {
        TableName,
        Key: keys.connection(c.companyId, c.connectionId),
        ConditionExpression: 'lastSeenAt = :seen',
        ExpressionAttributeValues: { ':seen': c.lastSeenAt },
      },
    },
    { Delete: { TableName, Key: keys.connectionOwner(c.connectionId) } },
  ]);
  if (result.written)
    await Promise.all([
      forgetSocketIds(c.companyId, c.userId, [c.connectionId]),
      db.send(new DeleteCommand({ TableName, Key: keys.phoneReady(c.companyId, c.userId, c.connectionId) })),
    ]);
  return result.written;
}

/**
 * Records a heartbeat at `now` (epoch ms). Answers whether this was the socket's first one (it then
 * gets the presence snapshot) and when it beat before, or undefined when the registry no longer knows
 * the socket.
 */
export async function recordHeartbeat(
  c: Connection,
  now = Date.now(),
): Promise<{ first: boolean; previousSeenAt: number | undefined } | undefined> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.connection(c.companyId, c.connectionId),
        UpdateExpression: 'SET lastSeenAt = :now, greeted = :true',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':now': now, ':true': true },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    const previous = Number(Attributes?.lastSeenAt);
    return { first: Attributes?.greeted !== true, previousSeenAt: Number.isFinite(previous) ? previous : undefined };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Adds a room to the connection; false when it already holds the most rooms allowed. */
export async function addRoom(c: Connection, room: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.connection(c.companyId, c.connectionId),
        UpdateExpression: 'ADD rooms :room',
        ConditionExpression:
          'attribute_exists(PK) AND (attribute_not_exists(rooms) OR size(rooms) < :max OR contains(rooms, :name))',
        ExpressionAttributeValues: { ':room': new Set([room]), ':max': MAX_ROOMS_PER_CONNECTION, ':name': room },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function removeRoom(c: Connection, room: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.connection(c.companyId, c.connectionId),
        UpdateExpression: 'DELETE rooms :room',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':room': new Set([room]) },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The company's registered sockets, lapsed ones included (presence tells them apart). */
export async function listConnections(companyId: string, options: { consistent?: boolean } = {}): Promise<StoredConnection[]> {
  const items = await queryPrefix<Record<string, unknown>>(keys.connectionsOf(companyId), {
    filter: { expression: 'expiresAt > :now', values: { ':now': epochSeconds() } },
    consistent: options.consistent,
  });
  return items.map((item) => ({
    connectionId: item.connectionId as string,
    companyId: item.companyId as string,
    userId: item.userId as string,
    sessionId: item.sessionId as string,
    name: item.name as string,
    sessionExpiresAt: Number(item.sessionExpiresAt),
    connectedAt: item.connectedAt as string,
    lastSeenAt: Number(item.lastSeenAt),
    rooms: (item.rooms as Set<string> | undefined) ?? new Set(),
  }));
}
