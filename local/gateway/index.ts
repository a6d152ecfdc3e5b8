import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyStructuredResultV2,
  APIGatewayRequestAuthorizerEvent,
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerResult,
  Context,
  SQSEvent,
} from 'aws-lambda';
import { type WebSocket, WebSocketServer } from 'ws';
import { DEFAULT_TIMEOUT_SECONDS, environmentFor } from '../../functions/lib/capabilities';
import { ORIGIN_SECRET_HEADER } from '../../functions/lib/config';
import type { SocketEvent } from '../../functions/lib/define-socket-handler';
import {
  type AuthorizerEntry,
  answeredSocketRoutes,
  fallbackRoute,
  type HttpRouteEntry,
  httpRoutes,
  isWellEncodedPath,
  matchPath,
  originAuthorizer,
  type QueueConsumerEntry,
  queueConsumers,
  type RouteEntry,
  type ScheduledJobEntry,
  type SocketRouteEntry,
  scheduledJobs,
  socketRoutes,
} from '../../functions/routes';
import { handlerEntry } from '../../infra/bundling';
import { REALTIME_ROUTE_SELECTION } from '../../shared/contract/realtime';
import type { AnsweredSocketContract } from '../../shared/contract/route';
import { cachedFunctionBundles, type FunctionBundling } from '../function-bundles';
import { createFunctionEnvironments, FunctionThrottled, type LocalFunctionSpec } from '../function-environments';
import { FunctionTimeout, invoke } from '../function-scope';
import { lambdaContext } from '../lambda-context';
import type { Logger } from '../log';
import { functionAccessKeyId, guardFunctionsTable } from '../table-guard';

/** API Gateway's own limit for HTTP API payloads. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/**
 * Lambda's invocation payload limit for synchronous invocations ("6 MB"), which an HTTP API's Lambda
 * integration meets first: the event as JSON (a base64-encoded body at its encoded size) at most
 * 6,291,456 bytes, the function's answer as JSON at most 6,291,556 (Lambda's own figures:
 * `RequestEntityTooLargeException: Request must be smaller than 6291456 bytes`, and
 * `Function.ResponseSizeTooLarge: Response payload size exceeded maximum allowed payload size
 * (6291556 bytes)`). https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html
 */
export const MAX_INVOCATION_REQUEST_BYTES = 6 * 1024 * 1024;
export const MAX_INVOCATION_RESPONSE_BYTES = 6 * 1024 * 1024 + 100;
/** API Gateway WebSocket quotas: a frame of at most 32 KB; a @connections post of at most 128 KB. */
const MAX_FRAME_BYTES = 32 * 1024;
const MAX_POST_BYTES = 128 * 1024;
/** API Gateway closes a WebSocket after 10 minutes idle and after 2 hours in any case. */
export const SOCKET_IDLE_MS = 10 * 60 * 1000;
export const SOCKET_LIFETIME_MS = 2 * 60 * 60 * 1000;
/** Lambda's limit for a cold start's initialisation (module loading). */
const INIT_TIMEOUT_MS = 10_000;
/**
 * API Gateway's integration timeout: an HTTP API answers 503 Service Unavailable when its integration
 * has not answered in 30 s. Locally that is also how long a request waits with every environment of its
 * function busy and none coming free (local/function-environments.ts) before it gets that answer.
 */
const INTEGRATION_TIMEOUT_MS = 30_000;

const HANDLERS_DIR = join(import.meta.dirname, '..', '..', 'functions', 'handlers');
/** Where the functions' SQS client sends (SQS_ENDPOINT); a queue's URL is `${base}/local/<queue>`. */
export const LOCAL_SQS_PATH = '/_local/sqs';
/** SQS makes a message visible again after a failed receive; locally: this many more tries, this far apart. */
const QUEUE_RETRIES = 2;
const QUEUE_RETRY_DELAY_MS = 1000;

export type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

const loaded = new Map<string, Promise<LambdaHandler>>();
/** Handler modules are imported on first use, as a cold start would, after the environment is set. */
function loadHandler(name: string): Promise<LambdaHandler> {
  let handler = loaded.get(name);
  if (!handler) {
    handler = import(pathToFileURL(join(HANDLERS_DIR, `${name}.ts`)).href).then((m) => m.handler as LambdaHandler);
    loaded.set(name, handler);
  }
  return handler;
}

/** Static segments win over parameters, as in API Gateway. */
const byStaticFirst = (routes: readonly HttpRouteEntry[]) => [...routes].sort((a, b) => paramCount(a) - paramCount(b));
function paramCount(route: HttpRouteEntry) {
  return (route.contract.path.match(/\{/g) ?? []).length;
}

/**
 * HTTP API payload 2.0 hands a body over as text only when its content type is text: `text/*`,
 * `application/json`, `application/xml` or `application/javascript`. Any other body — no
 * Content-Type at all, a form (`application/x-www-form-urlencoded`), octets — arrives base64-encoded
 * with `isBase64Encoded: true`. AWS's guide says only "if the content type of the request is binary,
 * the body is base64-encoded" (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html);
 * the split is the one measured against a deployed HTTP API (github.com/ministackorg/ministack/pull/766).
 */
function isTextual(contentType: string | undefined) {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type.startsWith('text/') || type === 'application/json' || type === 'application/xml' || type === 'application/javascript'
  );
}

function singleValueHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/**
 * Payload 2.0: a repeated query parameter's values comma-joined in `queryStringParameters`, the query
 * as sent in `rawQueryString` (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html).
 */
function queryParameters(search: URLSearchParams): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const key of new Set(search.keys())) out[key] = search.getAll(key).join(',');
  return Object.keys(out).length ? out : undefined;
}

/**
 * A WebSocket API's `$connect` event has the headers' names as the client sent them, not lower-cased as
 * an HTTP API's payload 2.0 has them (`Host`, `Sec-WebSocket-Key`, …), in `headers` (a repeated
 * header's last value) and `multiValueHeaders` (every value), as the examples of
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-lambda-auth.html
 * show. CloudFront's additions as CloudFront names them (the origin secret as infra/constructs/web-hosting.ts
 * configures it); whatever the client sent under those names, in any case, is dropped. Without an
 * origin secret nothing is added or dropped (asFromCloudFront).
 */
function connectHeaders(req: IncomingMessage, originSecret: string | undefined) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  // Without an origin secret, a call straight to the execute-api endpoint: the headers as the client sent them.
  const added = new Set(originSecret ? [ORIGIN_SECRET_HEADER, 'cloudfront-viewer-address'] : []);
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const value = req.rawHeaders[i + 1] as string;
    if (added.has(name.toLowerCase())) continue;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const add = (name: string, value: string) => {
    headers[name] = value;
    multiValueHeaders[name] = [value];
  };
  if (originSecret) {
    add('CloudFront-Viewer-Address', `${sourceIp(req)}:${req.socket.remotePort ?? 0}`);
    add(ORIGIN_SECRET_HEADER, originSecret);
  }
  return { headers, multiValueHeaders };
}

function sourceIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}

/**
 * What CloudFront does in front of the APIs: it sets `CloudFront-Viewer-Address` to the address the
 * request really came from (whatever the client sent) and adds the secret origin header. Locally the
 * gateway is the only way in, so every request gets both, and no client can choose its address.
 * Without an origin secret the gateway plays a call straight to the execute-api endpoint instead:
 * the request reaches the API as the client sent it, guessed headers and all.
 */
function asFromCloudFront(headers: Record<string, string>, req: IncomingMessage, originSecret: string | undefined) {
  if (!originSecret) return;
  headers['cloudfront-viewer-address'] = `${sourceIp(req)}:${req.socket.remotePort ?? 0}`;
  headers[ORIGIN_SECRET_HEADER] = originSecret;
}

/** A header's value, its name matched case-insensitively (a WebSocket event keeps the sender's spelling). */
function headerValue(headers: Record<string, string | undefined> | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * The message field the WebSocket API routes on: its route selection expression,
 * `$request.body.<path>`, as a path into the JSON body.
 */
const ROUTE_SELECTION_PATH = REALTIME_ROUTE_SELECTION.replace(/^\$request\.body\./, '').split('.');

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** API Gateway's `$context.requestTime`, in the Common Log Format it uses: `25/Nov/2026:10:59:00 +0000`. */
export function requestTime(date: Date): string {
  const day = `${two(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}`;
  return `${day}:${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/**
 * What CloudFront's viewer-request function does in AWS (infra/constructs/ws-path-rewrite.js): the
 * stage has no sub-paths, so `/ws/company/{id}` reaches it as `/ws` with `companyId` taken from the path.
 */
function companyFromPath(url: URL): URLSearchParams {
  const search = new URLSearchParams(url.searchParams);
  const match = /^\/ws\/company\/([^/]+)\/?$/.exec(url.pathname);
  if (match?.[1]) search.set('companyId', decodeURIComponent(match[1]));
  return search;
}

/**
 * The local stand-in for both API Gateway APIs: HTTP API payload 2.0 events built from real requests
 * and dispatched through the route table; a WebSocket endpoint at /ws with $connect, $disconnect and
 * $default; and the @connections management API that the real SDK client posts to.
 */
export interface GatewayOptions {
  log: Logger;
  /** What functions in environments of their own write to the console (default: this process's console). */
  functionLog?: Logger;
  /** Every variable the local handlers may get; each function sees only what its capabilities allow. */
  environment: Record<string, string>;
  /** How long a route may run, in ms: its `timeoutSeconds` unless a test shortens it. */
  timeoutMs?: (route: { timeoutSeconds?: number }) => number;
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
  handlers?: Readonly<Record<string, LambdaHandler>>;
  /**
   * How functions run: `environments` (the default), each in execution environments of its own as
   * Lambda runs them (local/function-environments.ts); `in-process`, all in this process, each
   * invocation scoped to its function's environment (local/function-scope.ts) — for a debugger, and
   * for tests that stop this process's clock. Handlers given as `handlers` always run in-process.
   */
  functions?: 'environments' | 'in-process';
  /** API Gateway's integration timeout (30 s unless a test shortens it). */
  integrationTimeoutMs?: number;
  /** Environments per function, and live environments in all, at most (default: from the cores; environmentLimits). */
  environmentsPerFunction?: number;
  environmentsTotal?: number;
  /** How long an invocation waits for a busy environment of its function before a new one starts (default: a cold start's time). */
  warmWaitMs?: number;
  /** The environments' code: `local` bundles (the default) or exactly the deployed ones (local/function-bundles.ts). */
  bundling?: FunctionBundling;
  /** Where a handler's source is, relative to the repository (default: functions/handlers/<name>.ts). */
  entryOf?: (handler: string) => string;
}

interface OpenSocket {
  ws: WebSocket;
  connectedAt: Date;
  lastActiveAt: Date;
  sourceIp: string;
  userAgent: string;
  /** $connect is still running: API Gateway answers @connections with 410 until it is done. */
  connecting: boolean;
}

/** Function output as it is, as the in-process mode prints it. */
const CONSOLE: Logger = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

/** The subprotocol `$connect` answered with (its `Sec-WebSocket-Protocol` header, in any case), if any. */
function returnedSubprotocol(result: APIGatewayProxyStructuredResultV2 | undefined): string | undefined {
  const entry = Object.entries(result?.headers ?? {}).find(([name]) => name.toLowerCase() === 'sec-websocket-protocol');
  return entry ? String(entry[1]) : undefined;
}

const routeTimeoutMs = (route: { timeoutSeconds?: number }) => (route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;

export function createGateway(options: GatewayOptions) {
  const { log } = options;
  const timeoutOf = options.timeoutMs ?? routeTimeoutMs;
  const idleMs = options.socketIdleMs ?? SOCKET_IDLE_MS;
  const lifetimeMs = options.socketLifetimeMs ?? SOCKET_LIFETIME_MS;
  const sockets = new Map<string, OpenSocket>();
  const routes = options.routes ?? {
    http: httpRoutes,
    socket: socketRoutes,
    answered: answeredSocketRoutes,
    fallback: fallbackRoute,
    queues: queueConsumers,
    scheduled: scheduledJobs,
    authorizer: originAuthorizer,
  };
  const orderedRoutes = byStaticFirst(routes.http);
  const handlerOf = (name: string) => {
    const given = options.handlers?.[name];
    return given ? Promise.resolve(given) : loadHandler(name);
  };
  const isolated = !options.handlers && options.functions !== 'in-process';
  /** Each route's function as its environments start it: computed once, not on every request. */
  const specs = new Map<RouteEntry, LocalFunctionSpec>();
  const functionSpec = (route: RouteEntry): LocalFunctionSpec => {
    let spec = specs.get(route);
    if (!spec) {
      spec = {
        name: route.handler,
        environment: {
          ...environmentFor(route.capabilities, options.environment),
          // Who is calling, as IAM knows it from the signature: the DynamoDB proxy grants what the route declares.
          AWS_ACCESS_KEY_ID: functionAccessKeyId(route.handler, route.table),
        },
      };
      specs.set(route, spec);
    }
    return spec;
  };
  const functions = isolated ? isolatedFunctions() : undefined;

  /** Bundles every function of the routes (local/function-bundles.ts); environments start from them. */
  function isolatedFunctions() {
    const all = [...routes.http, ...routes.socket, routes.fallback, ...(routes.queues ?? []), ...(routes.scheduled ?? [])];
    if (routes.authorizer) all.push(routes.authorizer);
    const built = cachedFunctionBundles({
      handlers: [...new Set(all.map((r) => r.handler))],
      entryOf: options.entryOf ?? handlerEntry,
      bundling: options.bundling,
    }).then((bundles) =>
      createFunctionEnvironments({
        bundles,
        limits: { perFunction: options.environmentsPerFunction, total: options.environmentsTotal },
        warmWaitMs: options.warmWaitMs,
        log,
        functionLog: options.functionLog ?? CONSOLE,
      }),
    );
    built.catch(() => {});
    return {
      built,
      /** Ends every environment (the bundles stay in their cache for the next stack). */
      close: async () => {
        await (await built.catch(() => undefined))?.close();
      },
    };
  }

  /** Invocations still running: closing waits for them, so none calls back into a stopped gateway. */
  const running = new Set<Promise<unknown>>();
  let closing = false;

  function run(route: RouteEntry, event: unknown) {
    const invocation = runFunction(route, event);
    running.add(invocation);
    const forget = () => running.delete(invocation);
    invocation.then(forget, forget);
    return invocation;
  }

  /**
   * Runs a route's handler as its function would run: its own environment, and its timeout counted
   * from the invocation (a cold start's module loading has Lambda's separate 10 s init limit), and
   * only the table access its route declares (local/table-guard.ts).
   */
  async function runFunction(route: RouteEntry, event: unknown) {
    const timeoutMs = timeoutOf(route);
    if (functions) {
      const environments = await functions.built;
      return environments.invoke(functionSpec(route), event, {
        timeoutMs,
        // Lambda's 10 s init limit, then again within the invocation's timeout ("suppressed init").
        initTimeoutMs: INIT_TIMEOUT_MS + timeoutMs,
        // A queue's message waits for its consumer as long as it must; a request, as long as API Gateway waits.
        admissionMs:
          'queue' in route || 'schedule' in route
            ? Number.POSITIVE_INFINITY
            : (options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS),
      });
    }
    const fn = { name: route.handler, environment: environmentFor(route.capabilities, options.environment), table: route.table };
    const handler = await invoke(fn, INIT_TIMEOUT_MS, async () => {
      const loaded = await handlerOf(route.handler);
      await guardFunctionsTable();
      return loaded;
    });
    return invoke(fn, timeoutMs, () => handler(event, lambdaContext(route.handler, Date.now() + timeoutMs)));
  }

  async function handleHttp(req: IncomingMessage, res: ServerResponse) {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();

    if (url.pathname.startsWith('/@connections/')) return handleManagement(req, res, url, method);
    if (url.pathname === LOCAL_SQS_PATH || url.pathname === `${LOCAL_SQS_PATH}/`) return handleQueue(req, res);

    const body = await readBody(req);
    if (body === 'too-large') {
      sendJson(res, 413, { message: 'Request Entity Too Large' });
      return;
    }
    const route = isWellEncodedPath(url.pathname)
      ? orderedRoutes.find((r) => r.contract.method === method && matchPath(r.contract.path, url.pathname))
      : undefined;
    const routeKey = route ? `${route.contract.method} ${route.contract.path}` : '$default';
    const headers = singleValueHeaders(req);
    asFromCloudFront(headers, req, options.originSecret);
    const textual = isTextual(headers['content-type']);
    const requestId = randomUUID();
    const cookies = headers.cookie?.split(';').map((c) => c.trim());
    const event: APIGatewayProxyEventV2 = {
      version: '2.0',
      routeKey,
      rawPath: url.pathname,
      rawQueryString: url.search.slice(1),
      cookies,
      headers,
      queryStringParameters: queryParameters(url.searchParams),
      pathParameters: route ? matchPath(route.contract.path, url.pathname) : undefined,
      body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
      isBase64Encoded: body.length > 0 && !textual,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'localhost',
        http: {
          method,
          // API Gateway hands the handler a decoded path here and the raw one as rawPath.
          path: isWellEncodedPath(url.pathname) ? decodeURIComponent(url.pathname) : url.pathname,
          protocol: `HTTP/${req.httpVersion}`,
          sourceIp: sourceIp(req),
          userAgent: headers['user-agent'] ?? '',
        },
        requestId,
        routeKey,
        stage: '$default',
        time: new Date().toISOString(),
        timeEpoch: Date.now(),
      },
    };
    // API Gateway runs the authorizer before it invokes the integration.
    const refused = await authorizeHttp(event);
    if (refused) {
      sendJson(res, refused, { message: STATUS_CODES[refused] });
      log.info(`${method} ${url.pathname} ${refused} ${Date.now() - started}ms`);
      return;
    }
    if (Buffer.byteLength(JSON.stringify(event)) > MAX_INVOCATION_REQUEST_BYTES) {
      // Lambda refuses the invocation (413 RequestEntityTooLargeException) and the client gets a 413.
      log.error(`${method} ${url.pathname}: the event is over Lambda's ${MAX_INVOCATION_REQUEST_BYTES} bytes`);
      sendJson(res, 413, { message: 'Request Entity Too Large' });
      log.info(`${method} ${url.pathname} 413 ${Date.now() - started}ms`);
      return;
    }
    let status = 500;
    try {
      const result = (await run(route ?? routes.fallback, event)) as APIGatewayProxyResultV2;
      if (Buffer.byteLength(JSON.stringify(result) ?? '') > MAX_INVOCATION_RESPONSE_BYTES) {
        // Lambda fails the invocation (Function.ResponseSizeTooLarge): to API Gateway, a function error.
        throw new Error(
          `Function.ResponseSizeTooLarge: Response payload size exceeded maximum allowed payload size (${MAX_INVOCATION_RESPONSE_BYTES} bytes).`,
        );
      }
      status = writeResult(res, result);
    } catch (error) {
      // A function error, a timeout included, is what HTTP API answers 500 for. Its 503 "Service
      // Unavailable" is the 30 s integration timeout, which no function reaches (they stop at 29 s) but
      // a request still waiting for a free environment of its function does.
      if (error instanceof FunctionThrottled) {
        log.error(`${method} ${url.pathname}: ${error.message}`);
        sendJson(res, 503, { message: 'Service Unavailable' });
        log.info(`${method} ${url.pathname} 503 ${Date.now() - started}ms`);
        return;
      }
      if (error instanceof FunctionTimeout) log.error(`${method} ${url.pathname}: ${error.message}`);
      else log.error(`${method} ${url.pathname} failed: ${(error as Error).stack ?? error}`);
      sendJson(res, 500, { message: 'Internal Server Error' });
    }
    log.info(`${method} ${url.pathname} ${status} ${Date.now() - started}ms`);
  }

  /** The HTTP API's answers of the authorizer per identity value: with simple responses, for every route. */
  const authorizations = new Map<string, { allowed: boolean; until: number }>();

  /**
   * The HTTP API's Lambda authorizer (routes.authorizer), run as API Gateway runs it before any route:
   * a request without its identity header is answered 401 without invoking anything; otherwise the
   * function's answer, kept per header value for its TTL, admits the request or refuses it 403, and a
   * failing authorizer means 500. The status of the refusal, or undefined to go on to the route.
   */
  async function authorizeHttp(event: APIGatewayProxyEventV2): Promise<number | undefined> {
    const authorizer = routes.authorizer;
    if (!authorizer) return undefined;
    const identity = headerValue(event.headers, authorizer.identityHeader);
    if (!identity) return 401;
    const kept = authorizations.get(identity);
    if (kept && kept.until > Date.now()) return kept.allowed ? undefined : 403;
    const { body: _body, isBase64Encoded: _encoded, ...request } = event;
    const authorizerEvent: APIGatewayRequestAuthorizerEventV2 = {
      ...request,
      type: 'REQUEST',
      routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${event.requestContext.http.method}${event.rawPath}`,
      identitySource: [identity],
      cookies: event.cookies ?? [],
    };
    try {
      const { isAuthorized } = (await run(authorizer, authorizerEvent)) as APIGatewaySimpleAuthorizerResult;
      if (typeof isAuthorized !== 'boolean') throw new Error('answered without isAuthorized');
      authorizations.set(identity, { allowed: isAuthorized, until: Date.now() + authorizer.resultTtlSeconds * 1000 });
      return isAuthorized ? undefined : 403;
    } catch (error) {
      log.error(`authorizer ${authorizer.handler} failed: ${(error as Error).stack ?? error}`);
      return 500;
    }
  }

  /**
   * The WebSocket API's Lambda authorizer on `$connect`: 401 without its identity header, invoking
   * nothing; otherwise the REST-style REQUEST event, answered with an IAM policy that must allow the
   * connection (403 if not). API Gateway keeps no answers for WebSocket authorizers.
   */
  async function authorizeConnect(event: SocketEvent, req: IncomingMessage): Promise<number | undefined> {
    const authorizer = routes.authorizer;
    if (!authorizer) return undefined;
    const headers = (event.headers ?? {}) as Record<string, string>;
    if (!headerValue(headers, authorizer.identityHeader)) return 401;
    const query = event.queryStringParameters ?? null;
    const authorizerEvent = {
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:local:000000000000:local/${event.requestContext.stage}/$connect`,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
      queryStringParameters: query,
      multiValueQueryStringParameters: query && Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]])),
      stageVariables: null,
      requestContext: {
        ...event.requestContext,
        identity: { sourceIp: sourceIp(req), userAgent: headerValue(headers, 'user-agent') ?? '' },
      },
    } as unknown as APIGatewayRequestAuthorizerEvent;
    try {
      const policy = (await run(authorizer, authorizerEvent)) as APIGatewayAuthorizerResult;
      const effects = (policy?.policyDocument?.Statement ?? []).map((statement) => statement.Effect);
      return effects.includes('Allow') && !effects.includes('Deny') ? undefined : 403;
    } catch (error) {
      log.error(`authorizer ${authorizer.handler} failed: ${(error as Error).stack ?? error}`);
      return 500;
    }
  }

  function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2): number {
    if (typeof result !== 'object' || result === null || !('statusCode' in result)) {
      // Payload 2.0: a result without statusCode is the JSON body of a 200.
      sendJson(res, 200, result);
      return 200;
    }
    const structured = result as APIGatewayProxyStructuredResultV2;
    const status = structured.statusCode ?? 200;
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(structured.headers ?? {})) headers[k] = String(v);
    if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
    res.writeHead(status, headers);
    res.end(structured.body ? Buffer.from(structured.body, structured.isBase64Encoded ? 'base64' : 'utf8') : undefined);
    return status;
  }

  /** @connections as API Gateway answers it: the fields the SDK reads, and 410 GoneException for a closed id. */
  async function handleManagement(req: IncomingMessage, res: ServerResponse, url: URL, method: string) {
    const connectionId = decodeURIComponent(url.pathname.slice('/@connections/'.length));
    const socket = sockets.get(connectionId);
    if (!socket || socket.connecting) {
      res.writeHead(410, { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException' });
      res.end(JSON.stringify({ message: null }));
      return;
    }
    if (method === 'POST') {
      const body = await readBody(req);
      if (body === 'too-large' || body.length > MAX_POST_BYTES) {
        res.writeHead(413, { 'content-type': 'application/json', 'x-amzn-errortype': 'PayloadTooLargeException' });
        res.end(JSON.stringify({ message: `Message too long. Max allowed size: ${MAX_POST_BYTES} bytes` }));
        return;
      }
      socket.ws.send(body.toString('utf8'));
      socket.lastActiveAt = new Date();
      res.writeHead(200).end();
    } else if (method === 'GET') {
      sendJson(res, 200, {
        connectedAt: socket.connectedAt.toISOString(),
        lastActiveAt: socket.lastActiveAt.toISOString(),
        identity: { sourceIp: socket.sourceIp, userAgent: socket.userAgent },
      });
    } else if (method === 'DELETE') {
      socket.ws.close(1000, 'Closed by the server');
      res.writeHead(204).end();
    } else {
      sendJson(res, 405, { message: 'Method Not Allowed' });
    }
  }

  /**
   * SQS's SendMessage as the SDK speaks it (AWS JSON 1.0), for the queues of the route table's
   * consumers: the message is handed to its consumer in the background, as an event source mapping
   * would, and tried again a few times if the consumer fails (SQS's redelivery).
   */
  async function handleQueue(req: IncomingMessage, res: ServerResponse) {
    const target = String(req.headers['x-amz-target'] ?? '');
    const body = await readBody(req);
    if (target !== 'AmazonSQS.SendMessage' || body === 'too-large') {
      sendJson(res, 400, { __type: 'com.amazonaws.sqs#InvalidAction', message: `${target} is not emulated` });
      return;
    }
    const { QueueUrl, MessageBody } = JSON.parse(body.toString('utf8')) as { QueueUrl?: string; MessageBody?: string };
    const queue = QueueUrl?.split('/').pop();
    const consumer = routes.queues?.find((q) => q.queue === queue);
    if (!consumer || typeof MessageBody !== 'string') {
      sendJson(res, 400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: `No queue ${QueueUrl}` });
      return;
    }
    const messageId = randomUUID();
    const md5 = createHash('md5').update(MessageBody).digest('hex');
    sendJson(res, 200, { MessageId: messageId, MD5OfMessageBody: md5 });
    deliverMessage(consumer, messageId, MessageBody, md5, 1);
  }

  function deliverMessage(consumer: QueueConsumerEntry, messageId: string, body: string, md5: string, attempt: number) {
    const event: SQSEvent = {
      Records: [
        {
          messageId,
          receiptHandle: randomUUID(),
          body,
          attributes: {
            ApproximateReceiveCount: String(attempt),
            SentTimestamp: String(Date.now()),
            SenderId: 'local',
            ApproximateFirstReceiveTimestamp: String(Date.now()),
          },
          messageAttributes: {},
          md5OfBody: md5,
          eventSource: 'aws:sqs',
          eventSourceARN: `arn:aws:sqs:local:000000000000:${consumer.queue}`,
          awsRegion: 'local',
        },
      ],
    };
    log.info(`SQS ${consumer.queue} → ${consumer.handler} (try ${attempt})`);
    run(consumer, event).catch((error: unknown) => {
      log.error(`${consumer.handler} failed: ${(error as Error).stack ?? error}`);
      if (attempt > QUEUE_RETRIES || closing) return;
      const retry = new Promise<void>((resolve) =>
        setTimeout(() => {
          if (!closing) deliverMessage(consumer, messageId, body, md5, attempt + 1);
          resolve();
        }, QUEUE_RETRY_DELAY_MS),
      );
      running.add(retry);
      retry.then(() => running.delete(retry));
    });
  }

  const socketRoute = (routeKey: string): SocketRouteEntry => {
    const entry = routes.socket.find((r) => r.contract.routeKey === routeKey);
    if (!entry) throw new Error(`No socket route ${routeKey}`);
    return entry;
  };

  /**
   * A message's route as the WebSocket API's route selection expression picks it
   * (REALTIME_ROUTE_SELECTION, `$request.body.action`, as infra/constructs/realtime-api.ts deploys it):
   * the route whose key is the JSON body's `action`, else `$default` — for a body that is not JSON,
   * has no such field or names no route (https://docs.aws.amazon.com/apigateway/latest/developerguide/websocket-api-develop-routes.html).
   * `$connect` and `$disconnect` are never a message's route.
   */
  function selectRoute(body: string): SocketRouteEntry | AnsweredSocketContract {
    let selected: unknown;
    try {
      selected = ROUTE_SELECTION_PATH.reduce<unknown>(
        (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
        JSON.parse(body),
      );
    } catch {
      selected = undefined;
    }
    const key = selected === undefined || selected === null ? undefined : String(selected);
    if (!key || key === '$connect' || key === '$disconnect') return socketRoute('$default');
    return (
      routes.answered?.find((r) => r.routeKey === key) ??
      routes.socket.find((r) => (r.contract.routeKey as string) === key) ??
      socketRoute('$default')
    );
  }

  /** A MOCK route's answer: its template with the `$context` variables API Gateway fills in. */
  function answerOf(route: AnsweredSocketContract, connectionId: string): string | undefined {
    if (route.answerTemplate === undefined) return undefined;
    const now = new Date();
    const context: Record<string, string> = {
      requestTime: requestTime(now),
      requestTimeEpoch: String(now.getTime()),
      connectionId,
      routeKey: route.routeKey,
      eventType: 'MESSAGE',
    };
    return route.answerTemplate.replace(/\$context\.(\w+)/g, (_, name: string) => context[name] ?? '');
  }

  function socketEvent(
    routeKey: string,
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
    connectionId: string,
    extra: Partial<SocketEvent> & { multiValueHeaders?: Record<string, string[]> },
  ): SocketEvent {
    return {
      requestContext: {
        routeKey,
        eventType,
        connectionId,
        messageId: eventType === 'MESSAGE' ? randomUUID() : undefined,
        extendedRequestId: randomUUID(),
        requestTime: new Date().toUTCString(),
        messageDirection: 'IN',
        stage: 'ws',
        connectedAt: sockets.get(connectionId)?.connectedAt.getTime() ?? Date.now(),
        requestTimeEpoch: Date.now(),
        requestId: randomUUID(),
        domainName: 'localhost',
        apiId: 'local',
      },
      isBase64Encoded: false,
      ...extra,
    } as SocketEvent;
  }

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

  const server = createServer((req, res) => {
    handleHttp(req, res).catch((error) => {
      log.error(`gateway failure: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal Server Error' });
    });
  });

  server.on('upgrade', async (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws' && !url.pathname.startsWith('/ws/')) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    // Like API Gateway's ids: opaque, URL-safe here so tests can use them in paths as they are.
    const connectionId = randomBytes(12).toString('base64url');
    const { headers, multiValueHeaders } = connectHeaders(req, options.originSecret);
    const connectedAt = new Date();
    const pending = { connectedAt, connecting: true } as OpenSocket;
    sockets.set(connectionId, pending);
    try {
      const connect = socketEvent('$connect', 'CONNECT', connectionId, {
        headers,
        multiValueHeaders,
        queryStringParameters: queryParameters(companyFromPath(url)),
      });
      const refused = await authorizeConnect(connect, req);
      const result = (refused ? { statusCode: refused } : await run(socketRoute('$connect'), connect)) as
        | APIGatewayProxyStructuredResultV2
        | undefined;
      const status = result?.statusCode ?? 200;
      if (status < 200 || status >= 300) {
        sockets.delete(connectionId);
        log.info(`WS connect refused ${status}`);
        socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Forbidden'}\r\ncontent-length: 0\r\n\r\n`);
        return;
      }
      subprotocols.set(req, returnedSubprotocol(result));
    } catch (error) {
      sockets.delete(connectionId);
      log.error(`WS $connect failed: ${(error as Error).stack ?? error}`);
      socket.end('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const entry: OpenSocket = {
        ws,
        connectedAt,
        lastActiveAt: new Date(),
        sourceIp: sourceIp(req),
        userAgent: req.headers['user-agent'] ?? '',
        connecting: false,
      };
      sockets.set(connectionId, entry);
      log.info(`WS connected ${connectionId}`);

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
          const route = selectRoute(body);
          if (!('contract' in route)) {
            // A MOCK route: answered from its template, or one-way (socketQuietHeartbeat).
            const answer = answerOf(route, connectionId);
            if (answer !== undefined) ws.send(answer);
            return;
          }
          await run(route, socketEvent(route.contract.routeKey, 'MESSAGE', connectionId, { body }));
        } catch (error) {
          log.error(`WS $default failed: ${(error as Error).stack ?? error}`);
        }
      });
      ws.on('close', async () => {
        clearTimeout(idle);
        clearTimeout(lifetime);
        sockets.delete(connectionId);
        log.info(`WS disconnected ${connectionId}`);
        try {
          await run(socketRoute('$disconnect'), socketEvent('$disconnect', 'DISCONNECT', connectionId, {}));
        } catch (error) {
          log.error(`WS $disconnect failed: ${(error as Error).stack ?? error}`);
        }
      });
    });
  });

  return {
    /** Answers once the functions are bundled, so the first request does not wait for the build. */
    listen: async (port: number, host = '127.0.0.1') => {
      await functions?.built;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
    },
    close: async () => {
      closing = true;
      for (const { ws } of sockets.values()) ws?.terminate();
      wss.close();
      // Their pushes to closed sockets answer 410 Gone, as API Gateway's do; each ends within its timeout.
      await Promise.allSettled(running);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await functions?.close();
    },
    /**
     * Runs a scheduled job's function once, as its EventBridge rule would, with the rule's input; a
     * failure is logged, not thrown (EventBridge's is a log line too). Nothing runs once closing.
     */
    runScheduled: async (schedule: ScheduledJobEntry['schedule'], event: Record<string, unknown>): Promise<void> => {
      const job = routes.scheduled?.find((j) => j.schedule === schedule);
      if (!job || closing) return;
      log.info(`schedule ${schedule} → ${job.handler}`);
      await run(job, event).catch((error: unknown) => log.error(`${job.handler} failed: ${(error as Error).stack ?? error}`));
    },
    /** Each function's environments, cold starts and invocations (isolated mode; empty in-process). */
    functionStats: async () => (functions ? (await functions.built).stats() : {}),
  };
}
