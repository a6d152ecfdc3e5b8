import type { ServerEvent } from '../../shared/contract/realtime-events';
import { logError } from '../lib/log';
import { listConnections, removeCompanyConnection } from './connections';
import { closeSocket, deliver } from './delivery';
import { announceDepartures } from './presence';

/** Who gets an event: the listed users' sockets, or the sockets that joined a room; by default the whole company. */
export type Audience = { userIds: readonly string[] } | { room: string };

/**
 * The one way the product pushes to browsers: sends an event to the company's open sockets (narrowed
 * by the audience). An audience still being worked out (who sees a conversation) is awaited beside the
 * connections' listing, so it adds no round trip; one that fails sends nothing. Never throws, so a push
 * can never fail the request that made it; answers how many sockets took the event.
 */
export async function publish(companyId: string, event: ServerEvent, audience?: Audience | Promise<Audience>): Promise<number> {
  try {
    const [listed, to] = await Promise.all([listConnections(companyId), audience]);
    const connections = listed.filter((c) => {
      if (!to) return true;
      if ('room' in to) return c.rooms.has(to.room);
      return to.userIds.includes(c.userId);
    });
    return await deliver(companyId, connections, event);
  } catch (error) {
    logError({ route: 'publish', companyId, event: event.type }, error);
    return 0;
  }
}

/**
 * Closes the open sockets of a user (of one sign-in session only, when given): removal from the
 * company, sign-out and revoked sessions end their live connections too. The entries go first, so the
 * $disconnect that follows finds nothing left to announce; the company hears `user_left` once.
 */
export async function disconnectUser(companyId: string, userId: string, sessionId?: string): Promise<number> {
  const connections = (await listConnections(companyId, { consistent: true })).filter(
    (c) => c.userId === userId && (!sessionId || c.sessionId === sessionId),
  );
  await Promise.all(
    connections.map(async (c) => {
      await removeCompanyConnection(c);
      await closeSocket(c.connectionId);
    }),
  );
  await announceDepartures(companyId, connections);
  return connections.length;
}
