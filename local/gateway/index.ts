import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  type AuthorizerEntry,
  answeredSocketRoutes,
  fallbackRoute,
  type HttpRouteEntry,
  httpRoutes,
  originAuthorizer,
  type QueueConsumerEntry,
  queueConsumers,
  type RouteEntry,
  type ScheduledJobEntry,
  type SocketRouteEntry,
  scheduledJobs,
  socketRoutes,
} from '../../functions/routes';
import type { AnsweredSocketContract } from '../../shared/contract/route';
import { createAuthorizer } from './authorizer';
import { CONNECTIONS_PATH, createConnectionsApi } from './connections';
import { createFunctions, type FunctionOptions } from './functions';
import { createHttpApi } from './http-api';
import { sendJson } from './http-io';
import { createQueues, isQueuePath } from './queues';
import { createSocketRoutes } from './socket-routes';
import { createSockets } from './sockets';
import { createWebSocketApi } from './websocket-api';

export { requestTime } from './events';
export type { LambdaHandler } from './functions';
export { MAX_INVOCATION_REQUEST_BYTES, MAX_INVOCATION_RESPONSE_BYTES } from './http-api';
export { LOCAL_SQS_PATH } from './queues';
export { SOCKET_IDLE_MS, SOCKET_LIFETIME_MS } from './websocket-api';

/**
 * The local stand-in for both API Gateway APIs (docs/architecture.md §1, "Locally"): HTTP API payload
 * 2.0 events built from real requests and dispatched through the route table (http-api.ts); a
 * WebSocket endpoint at /ws with $connect, $disconnect and $default (websocket-api.ts); the
 * @connections management API that the real SDK client posts to (connections.ts); the origin
 * authorizer in front of both (authorizer.ts); SQS for the queue consumers (queues.ts). Every function
 * runs as Lambda runs it (functions.ts).
 */
export interface GatewayOptions extends FunctionOptions {
  /** Socket idle and lifetime limits, in ms (API Gateway's unless a test shortens them). */
  socketIdleMs?: number;
  socketLifetimeMs?: number;
  /**
   * The secret CloudFront adds to origin requests; the origin authorizer and the handlers refuse
   * requests without it. Without one, requests come as straight to the execute-api endpoint.
   */
  originSecret?: string;
  /** Gateway tests only: other routes and handler functions than the route table's. */
  routes?: {
    http: readonly HttpRouteEntry[];
    socket: readonly SocketRouteEntry[];
    /** Routes the gateway answers itself, as API Gateway does a MOCK integration (default: answeredSocketRoutes). */
    answered?: readonly AnsweredSocketContract[];
    fallback: RouteEntry;
    queues?: readonly QueueConsumerEntry[];
    /** Functions EventBridge runs on a schedule in AWS; run here by `runScheduled` (the local stack's timers). */
    scheduled?: readonly ScheduledJobEntry[];
    /** API Gateway's Lambda authorizer of every HTTP route and `$connect` (the route table's: originAuthorizer). */
    authorizer?: AuthorizerEntry;
  };
}

export function createGateway(options: GatewayOptions) {
  const { log, originSecret } = options;
  const routes = options.routes ?? {
    http: httpRoutes,
    socket: socketRoutes,
    answered: answeredSocketRoutes,
    fallback: fallbackRoute,
    queues: queueConsumers,
    scheduled: scheduledJobs,
    authorizer: originAuthorizer,
  };
  const everyFunction = [
    ...routes.http,
    ...routes.socket,
    routes.fallback,
    ...(routes.queues ?? []),
    ...(routes.scheduled ?? []),
  ];
  if (routes.authorizer) everyFunction.push(routes.authorizer);
  const functions = createFunctions(options, everyFunction);
  const { run } = functions;
  const authorizer = createAuthorizer(routes.authorizer, run, log);
  const sockets = createSockets();

  const httpApi = createHttpApi({
    routes: routes.http,
    fallback: routes.fallback,
    run,
    authorize: authorizer.http,
    originSecret,
    log,
  });
  const connections = createConnectionsApi(sockets);
  const queues = createQueues({
    consumers: routes.queues ?? [],
    // Who may send to a queue: the functions whose capability it is (in AWS, the roles granted SendMessage).
    sendersOf: (queue) =>
      new Set(
        everyFunction
          .filter((route) => (route.capabilities as readonly string[]).includes(queue))
          .map((route) => functions.accessKeyOf(route))
          .filter((key) => key !== undefined),
      ),
    run,
    track: functions.track,
    closing: () => functions.closing,
    log,
  });
  const webSocketApi = createWebSocketApi({
    routes: createSocketRoutes(routes.socket, routes.answered),
    sockets,
    run,
    authorize: authorizer.connect,
    originSecret,
    idleMs: options.socketIdleMs,
    lifetimeMs: options.socketLifetimeMs,
    log,
  });

  /** The HTTP server's requests: the @connections API, the SQS stand-in, or the HTTP API. */
  async function dispatch(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith(CONNECTIONS_PATH)) return connections(req, res, url);
    if (isQueuePath(url.pathname)) return queues.handle(req, res);
    return httpApi(req, res, url);
  }

  const server = createServer((req, res) => {
    dispatch(req, res).catch((error) => {
      log.error(`gateway failure: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal Server Error' });
    });
  });
  server.on('upgrade', webSocketApi.upgrade);

  return {
    /** Answers once the functions are bundled, so the first request does not wait for the build. */
    listen: async (port: number, host = '127.0.0.1') => {
      await functions.built();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
    },
    close: async () => {
      webSocketApi.close();
      // Their pushes to closed sockets answer 410 Gone, as API Gateway's do; each ends within its timeout.
      await functions.settle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await functions.close();
    },
    /**
     * Runs a scheduled job's function once, as its EventBridge rule would, with the rule's input; a
     * failure is logged, not thrown (EventBridge's is a log line too). Nothing runs once closing.
     */
    runScheduled: async (schedule: ScheduledJobEntry['schedule'], event: Record<string, unknown>): Promise<void> => {
      const job = routes.scheduled?.find((j) => j.schedule === schedule);
      if (!job || functions.closing) return;
      log.info(`schedule ${schedule} → ${job.handler}`);
      await run(job, event).catch((error: unknown) => log.error(`${job.handler} failed: ${(error as Error).stack ?? error}`));
    },
    /** Each function's environments, cold starts and invocations (isolated mode; empty in-process). */
    functionStats: functions.stats,
    /** Starts one environment of each function with none, in the background (`npm start`; functions.ts). */
    warmFunctions: functions.warmAll,
  };
}
