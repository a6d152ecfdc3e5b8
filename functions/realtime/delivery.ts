import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { ServerEvent } from '../../shared/contract/realtime-events';
import { forEachLimited } from '../lib/concurrency';
import { logError } from '../lib/log';
import { type Connection, removeCompanyConnection } from './connections';

/** Requests in flight per fan-out: the SDK's default socket pool, so 100 sockets take two round trips, not 100. */
const FAN_OUT_CONCURRENCY = 50;

let client: ApiGatewayManagementApiClient | undefined;
/** Created on first use: most functions that import this never push. WS_CALLBACK_URL is the stage URL. */
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

const isGone = (error: unknown) =>
  error instanceof GoneException || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410;

const encode = (event: ServerEvent) => new TextEncoder().encode(JSON.stringify(event));

/**
 * Pushes one event to the given sockets, in parallel with bounded concurrency. A socket that answers
 * 410 Gone has closed without $disconnect and is deleted (unless it may still be in $connect); any
 * other failure is logged. Never throws:
 * answers how many sockets took the event.
 */
export async function deliver(companyId: string, connections: readonly Connection[], event: ServerEvent): Promise<number> {
  const payload = encode(event);
  let delivered = 0;
  await forEachLimited(connections, FAN_OUT_CONCURRENCY, async (c) => {
    try {
      await management().send(new PostToConnectionCommand({ ConnectionId: c.connectionId, Data: payload }));
      delivered++;
    } catch (error) {
      if (isGone(error)) {
        if (isYoung(c)) return;
        // Closed by the browser, as at $disconnect (a reload, maybe): its phone keeps the reload grace.
        await removeCompanyConnection(c, { reloadGrace: true }).catch((e) =>
          logError({ route: 'deliver', companyId, connectionId: c.connectionId }, e),
        );
      } else {
        logError({ route: 'deliver', companyId, connectionId: c.connectionId, event: event.type }, error);
      }
    }
  });
  return delivered;
}

/** An answer to one socket (acknowledgements, errors, the presence snapshot); a closed socket is no failure. */
export async function reply(connectionId: string, event: ServerEvent): Promise<void> {
  try {
    await management().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: encode(event) }));
  } catch (error) {
    if (!isGone(error)) logError({ route: 'reply', connectionId, event: event.type }, error);
  }
}

/** Closes a socket from the server side (API Gateway then runs $disconnect); already closed is fine. */
export async function closeSocket(connectionId: string): Promise<void> {
  try {
    await management().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } catch (error) {
    if (!isGone(error)) logError({ route: 'closeSocket', connectionId }, error);
  }
}
