import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { RealtimeEvent, ServerEventType } from '../../shared/contract/realtime';
import { logError } from '../lib/log';
import { type Connection, listConnections, removeCompanyConnection } from './connections';

let client: ApiGatewayManagementApiClient | undefined;
/** Created on first use: most functions that import this never publish. WS_CALLBACK_URL is the stage URL. */
function management(): ApiGatewayManagementApiClient {
  const endpoint = process.env.WS_CALLBACK_URL;
  // Only functions with the publish capability have it; without it, fail rather than call AWS's default.
  if (!endpoint) throw new Error('Missing environment variable WS_CALLBACK_URL');
  client ??= new ApiGatewayManagementApiClient({ endpoint });
  return client;
}

/**
 * API Gateway answers 410 for a connection whose $connect is still running (it saved the item but
 * has not returned yet): a connection younger than this is kept on 410, not deleted as gone.
 */
export const CONNECTING_GRACE_MS = 5_000;

const isYoung = (c: Connection) => c.connectedAt !== undefined && Date.now() - Date.parse(c.connectedAt) < CONNECTING_GRACE_MS;

/**
 * Sends an event to every open socket of the company (or only the listed users'). A connection that
 * answers 410 Gone has closed without $disconnect and is deleted.
 */
export async function publish<T>(
  companyId: string,
  event: RealtimeEvent<T> & { type: ServerEventType },
  audience?: { userIds: readonly string[] },
): Promise<number> {
  const connections = (await listConnections(companyId)).filter((c) => !audience || audience.userIds.includes(c.userId));
  const payload = new TextEncoder().encode(JSON.stringify(event));
  const results = await Promise.all(
    connections.map(async (c) => {
      try {
        await management().send(new PostToConnectionCommand({ ConnectionId: c.connectionId, Data: payload }));
        return 1;
      } catch (error) {
        if (
          error instanceof GoneException ||
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410
        ) {
          if (!isYoung(c)) await removeCompanyConnection(companyId, c.connectionId);
        } else {
          logError({ route: 'publish', companyId, connectionId: c.connectionId }, error);
        }
        return 0;
      }
    }),
  );
  return results.reduce<number>((a, b) => a + b, 0);
}

/**
 * Closes the open sockets of a user (of one sign-in session only, when given): removal from the
 * company, sign-out and revoked sessions end their live connections too. Best effort per socket.
 */
export async function disconnectUser(companyId: string, userId: string, sessionId?: string): Promise<number> {
  const connections = (await listConnections(companyId)).filter(
    (c) => c.userId === userId && (!sessionId || c.sessionId === sessionId),
  );
  await Promise.all(
    connections.map(async (c) => {
      try {
        await management().send(new DeleteConnectionCommand({ ConnectionId: c.connectionId }));
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 410) {
          logError({ route: 'disconnectUser', companyId, connectionId: c.connectionId }, error);
        }
      }
      await removeCompanyConnection(companyId, c.connectionId);
    }),
  );
  return connections.length;
}
