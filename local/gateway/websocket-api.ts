import { randomBytes } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type WebSocket, WebSocketServer } from 'ws';
import type { RouteEntry } from '../../functions/routes';
import type { Logger } from '../log';
import type { Authorizer } from './authorizer';
import { companyFromPath, connectHeaders } from './cloudfront';
import { queryParameters, socketEvent } from './events';
import { sourceIp } from './http-io';
import { answerOf, type SocketRoutes } from './socket-routes';
import type { OpenSocket, Sockets } from './sockets';

/** API Gateway WebSocket quotas: a frame of at most 32 KB. */
const MAX_FRAME_BYTES = 32 * 1024;
/** API Gateway closes a WebSocket after 10 minutes idle and after 2 hours in any case. */
export const SOCKET_IDLE_MS = 10 * 60 * 1000;
export const SOCKET_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** The subprotocol `$connect` answered with (its `Sec-WebSocket-Protocol` header, in any case), if any. */
function returnedSubprotocol(result: APIGatewayProxyStructuredResultV2 | undefined): string | undefined {
  const entry = Object.entries(result?.headers ?? {}).find(([name]) => name.toLowerCase() === 'sec-websocket-protocol');
  return entry ? String(entry[1]) : undefined;
}

/** Whether an upgrade's path is the socket endpoint's: `/ws`, or `/ws/…` as CloudFront rewrites it (companyFromPath). */
export const isSocketPath = (pathname: string) => pathname === '/ws' || pathname.startsWith('/ws/');

/**
 * The WebSocket API at /ws: `$connect` (after the authorizer) decides the handshake, messages go to
 * the route their body selects or are answered as a MOCK route is, and a closed socket runs
 * `$disconnect`. Sockets close as API Gateway closes them (idle, lifetime, frame size, binary frames).
 */
export function createWebSocketApi(options: {
  routes: SocketRoutes;
  sockets: Sockets;
  run: (route: RouteEntry, event: unknown) => Promise<unknown>;
  authorize: Authorizer['connect'];
  originSecret: string | undefined;
  idleMs?: number;
  lifetimeMs?: number;
  log: Logger;
}) {
  const { routes, sockets, run, log } = options;
  const idleMs = options.idleMs ?? SOCKET_IDLE_MS;
  const lifetimeMs = options.lifetimeMs ?? SOCKET_LIFETIME_MS;

  /**
   * The handshake names a subprotocol only when `$connect` returned one in its `Sec-WebSocket-Protocol`
   * header: API Gateway does not choose one of those the client asked for itself
   * (https://docs.aws.amazon.com/apigateway/latest/developerguide/websocket-connect-route-subprotocol.html).
   * A client that asked for one and got none fails the handshake, as browsers and `ws` do against AWS.
   */
  const subprotocols = new WeakMap<IncomingMessage, string | undefined>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    handleProtocols: (_, req) => subprotocols.get(req) ?? false,
  });

  /** `$connect`'s verdict: true to complete the handshake; otherwise the socket has been answered. */
  async function admit(req: IncomingMessage, socket: Duplex, url: URL, connectionId: string): Promise<boolean> {
    const { headers, multiValueHeaders } = connectHeaders(req, options.originSecret);
    try {
      const connect = socketEvent('$connect', 'CONNECT', connectionId, sockets.connectedAt(connectionId), {
        headers,
        multiValueHeaders,
        queryStringParameters: queryParameters(companyFromPath(url)),
      });
      const refused = await options.authorize(connect, sourceIp(req));
      const result = (refused ? { statusCode: refused } : await run(routes.route('$connect'), connect)) as
        | APIGatewayProxyStructuredResultV2
        | undefined;
      const status = result?.statusCode ?? 200;
      if (status < 200 || status >= 300) {
        sockets.forget(connectionId);
        log.info(`WS connect refused ${status}`);
        socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Forbidden'}\r\ncontent-length: 0\r\n\r\n`);
        return false;
      }
      subprotocols.set(req, returnedSubprotocol(result));
      return true;
    } catch (error) {
      sockets.forget(connectionId);
      log.error(`WS $connect failed: ${(error as Error).stack ?? error}`);
      socket.end('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n');
      return false;
    }
  }

  /** An open socket's life: its limits, its messages, and `$disconnect` when it closes. */
  function serve(ws: WebSocket, entry: OpenSocket, connectionId: string) {
    // Idle: no frame either way for idleMs. Lifetime: lifetimeMs after connecting, whatever the traffic.
    let idle = setTimeout(() => ws.close(1001, 'Going away'), idleMs);
    const touch = () => {
      entry.lastActiveAt = new Date();
      clearTimeout(idle);
      idle = setTimeout(() => ws.close(1001, 'Going away'), idleMs);
    };
    const lifetime = setTimeout(() => ws.close(1001, 'Going away'), lifetimeMs);
    const send = ws.send.bind(ws);
    ws.send = ((...args: Parameters<WebSocket['send']>) => {
      touch();
      return send(...args);
    }) as WebSocket['send'];

    // Oversized frames end here: ws closes them with 1009, as API Gateway does over 32 KB.
    ws.on('error', (error) => log.info(`WS ${connectionId}: ${error.message}`));
    ws.on('message', async (data, isBinary) => {
      touch();
      // API Gateway WebSocket APIs take text frames only.
      if (isBinary) {
        ws.close(1003, 'Binary frames are not supported');
        return;
      }
      try {
        const body = data.toString();
        const route = routes.select(body);
        if (!('contract' in route)) {
          // A MOCK route: answered from its template, or one-way (socketQuietHeartbeat).
          const answer = answerOf(route, connectionId);
          if (answer !== undefined) ws.send(answer);
          return;
        }
        const event = socketEvent(route.contract.routeKey, 'MESSAGE', connectionId, sockets.connectedAt(connectionId), { body });
        await run(route, event);
      } catch (error) {
        log.error(`WS $default failed: ${(error as Error).stack ?? error}`);
      }
    });
    ws.on('close', async () => {
      clearTimeout(idle);
      clearTimeout(lifetime);
      sockets.forget(connectionId);
      log.info(`WS disconnected ${connectionId}`);
      try {
        await run(routes.route('$disconnect'), socketEvent('$disconnect', 'DISCONNECT', connectionId, undefined, {}));
      } catch (error) {
        log.error(`WS $disconnect failed: ${(error as Error).stack ?? error}`);
      }
    });
  }

  return {
    /** The HTTP server's `upgrade`: a handshake to /ws, or 404 for any other path. */
    upgrade: async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (!isSocketPath(url.pathname)) {
        socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
        return;
      }
      // Like API Gateway's ids: opaque, URL-safe here so tests can use them in paths as they are.
      const connectionId = randomBytes(12).toString('base64url');
      const connectedAt = new Date();
      sockets.connecting(connectionId, connectedAt);
      if (!(await admit(req, socket, url, connectionId))) return;
      wss.handleUpgrade(req, socket, head, (ws) => {
        const entry: OpenSocket = {
          ws,
          connectedAt,
          lastActiveAt: new Date(),
          sourceIp: sourceIp(req),
          userAgent: req.headers['user-agent'] ?? '',
        };
        sockets.opened(connectionId, entry);
        log.info(`WS connected ${connectionId}`);
        serve(ws, entry, connectionId);
      });
    },
    /** Ends every socket at once (the gateway is stopping); their `$disconnect` still runs. */
    close: () => {
      sockets.terminateAll();
      wss.close();
    },
  };
}
