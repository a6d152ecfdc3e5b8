import { PRESENCE_LAPSE_SECONDS } from '../../shared/constants';
import type { OnlineUser } from '../../shared/contract/realtime-events';
import { type Connection, listConnections, removeLapsedConnection, type StoredConnection } from './connections';
import { closeSocket, deliver, reply } from './delivery';

/**
 * Presence is derived from the connection registry: a user is online while at least one of their
 * sockets is registered and has beaten within the lapse. Several tabs are one presence.
 */
export const isLive = (c: StoredConnection, nowMs = Date.now()) =>
  nowMs - c.lastSeenAt <= PRESENCE_LAPSE_SECONDS * 1000 && c.sessionExpiresAt * 1000 > nowMs;

/** Oldest first; ties broken by id, so every function orders one user's sockets the same way. */
const byAge = (a: StoredConnection, b: StoredConnection) =>
  a.connectedAt.localeCompare(b.connectedAt) || a.connectionId.localeCompare(b.connectionId);

export function onlineUsers(connections: readonly StoredConnection[]): OnlineUser[] {
  const users = new Map<string, OnlineUser>();
  for (const c of [...connections].sort(byAge)) {
    if (!users.has(c.userId)) users.set(c.userId, { id: c.userId, name: c.name, since: c.connectedAt });
  }
  return [...users.values()];
}

/**
 * The company's live sockets, after dropping the lapsed ones (no heartbeat within the lapse, or past
 * their session's end): their entries go, their sockets are closed, and a user left with no live
 * socket is announced gone. Runs whenever a socket connects or beats, so no scheduler is needed.
 */
export async function liveConnections(companyId: string): Promise<StoredConnection[]> {
  const now = Date.now();
  const all = await listConnections(companyId, { consistent: true });
  const live = all.filter((c) => isLive(c, now));
  const lapsed = all.filter((c) => !isLive(c, now));
  const dropped = await Promise.all(
    lapsed.map(async (c) => {
      if (!(await removeLapsedConnection(c))) return undefined;
      await closeSocket(c.connectionId);
      return c;
    }),
  );
  await announceDepartures(
    companyId,
    dropped.filter((c) => c !== undefined),
    live,
  );
  return live;
}

/**
 * After a socket opened: everyone else hears `user_joined` when it is its user's oldest live socket,
 * i.e. the user was offline. Two tabs opening at once agree on which one is oldest, so one announces.
 */
export async function announceArrival(connection: StoredConnection): Promise<void> {
  const live = await liveConnections(connection.companyId);
  const own = live.filter((c) => c.userId === connection.userId).sort(byAge);
  if (own[0] && own[0].connectionId !== connection.connectionId) return;
  const others = live.filter((c) => c.connectionId !== connection.connectionId);
  await deliver(connection.companyId, others, {
    type: 'user_joined',
    data: { id: connection.userId, name: connection.name, since: connection.connectedAt },
  });
}

/** The company's online users, to a socket that has just started beating. */
export async function sendSnapshot(connection: Connection, live: readonly StoredConnection[]): Promise<void> {
  await reply(connection.connectionId, { type: 'presence_snapshot', data: { users: onlineUsers(live) } });
}

/**
 * After sockets closed: each of their users with no live socket left is announced with `user_left`.
 * Two tabs closing at once may both announce; clients treat the event as idempotent.
 */
export async function announceDepartures(
  companyId: string,
  closed: readonly Connection[],
  remaining?: readonly StoredConnection[],
): Promise<void> {
  if (closed.length === 0) return;
  const live = remaining ?? (await liveConnections(companyId));
  const gone = new Set(closed.map((c) => c.userId).filter((userId) => !live.some((c) => c.userId === userId)));
  for (const userId of gone) await deliver(companyId, live, { type: 'user_left', data: { id: userId } });
}
