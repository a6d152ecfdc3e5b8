import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from './http-io';
import { post, type Sockets } from './sockets';

/** Where the @connections management API is served: `/@connections/{connectionId}`. */
export const CONNECTIONS_PATH = '/@connections/';
/** API Gateway WebSocket quotas: a @connections post of at most 128 KB. */
const MAX_POST_BYTES = 128 * 1024;

function sendError(res: ServerResponse, status: number, type: string, message: string | null) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ message }));
}

/**
 * @connections as API Gateway answers it, for the real ApiGatewayManagementApiClient the functions
 * push with: the fields the SDK reads, 410 GoneException for a closed id (or one whose `$connect`
 * still runs), 413 PayloadTooLargeException over 128 KB.
 */
export function createConnectionsApi(sockets: Sockets) {
  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = (req.method ?? 'GET').toUpperCase();
    const connectionId = decodeURIComponent(url.pathname.slice(CONNECTIONS_PATH.length));
    const socket = sockets.open(connectionId);
    if (!socket) return sendError(res, 410, 'GoneException', null);
    if (method === 'POST') {
      const body = await readBody(req);
      if (body === 'too-large' || body.length > MAX_POST_BYTES)
        return sendError(res, 413, 'PayloadTooLargeException', `Message too long. Max allowed size: ${MAX_POST_BYTES} bytes`);
      post(socket, body.toString('utf8'));
      res.writeHead(200).end();
    } else if (method === 'GET') {
      sendJson(res, 200, {
        connectedAt: socket.connectedAt.toISOString(),
        lastActiveAt: socket.lastActiveAt.toISOString(),
        identity: { sourceIp: socket.sourceIp, userAgent: socket.userAgent },
      });
    } else if (method === 'DELETE') {
      sockets.close(connectionId);
      res.writeHead(204).end();
    } else {
      sendJson(res, 405, { message: 'Method Not Allowed' });
    }
  };
}
