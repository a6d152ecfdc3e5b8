import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { HttpRouteEntry, RouteEntry } from '../../functions/routes';
import { isWellEncodedPath, matchPath } from '../../shared/contract/route';
import { FunctionThrottled } from '../function-environments';
import { FunctionTimeout } from '../function-scope';
import type { Logger } from '../log';
import type { Authorizer } from './authorizer';
import { httpEvent } from './events';
import { readBody, sendJson } from './http-io';

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

/** Static segments win over parameters, as in API Gateway. */
export const byStaticFirst = (routes: readonly HttpRouteEntry[]) => [...routes].sort((a, b) => paramCount(a) - paramCount(b));
function paramCount(route: HttpRouteEntry) {
  return (route.contract.path.match(/\{/g) ?? []).length;
}

/** The route a request's method and path match (none for a badly encoded path: the fallback's 400). */
export function routeFor(routes: readonly HttpRouteEntry[], method: string, path: string): HttpRouteEntry | undefined {
  if (!isWellEncodedPath(path)) return undefined;
  return routes.find((r) => r.contract.method === method && matchPath(r.contract.path, path));
}

/** Writes a function's answer as API Gateway does with payload 2.0; its status. */
export function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2): number {
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

/**
 * The HTTP API: payload 2.0 events built from real requests, dispatched through the route table (its
 * fallback for what no route matches) after the authorizer, with API Gateway's and Lambda's limits
 * and API Gateway's answers to a function that fails.
 */
export function createHttpApi(options: {
  routes: readonly HttpRouteEntry[];
  fallback: RouteEntry;
  run: (route: RouteEntry, event: unknown) => Promise<unknown>;
  authorize: Authorizer['http'];
  originSecret: string | undefined;
  log: Logger;
}) {
  const { run, log } = options;
  const ordered = byStaticFirst(options.routes);

  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL) {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const done = (status: number) => log.info(`${method} ${url.pathname} ${status} ${Date.now() - started}ms`);

    const body = await readBody(req);
    if (body === 'too-large') {
      sendJson(res, 413, { message: 'Request Entity Too Large' });
      return;
    }
    const route = routeFor(ordered, method, url.pathname);
    const event = httpEvent(req, url, body, route?.contract, options.originSecret);
    // API Gateway runs the authorizer before it invokes the integration.
    const refused = await options.authorize(event);
    if (refused) {
      sendJson(res, refused, { message: STATUS_CODES[refused] });
      done(refused);
      return;
    }
    if (Buffer.byteLength(JSON.stringify(event)) > MAX_INVOCATION_REQUEST_BYTES) {
      // Lambda refuses the invocation (413 RequestEntityTooLargeException) and the client gets a 413.
      log.error(`${method} ${url.pathname}: the event is over Lambda's ${MAX_INVOCATION_REQUEST_BYTES} bytes`);
      sendJson(res, 413, { message: 'Request Entity Too Large' });
      done(413);
      return;
    }
    let status = 500;
    try {
      const result = (await run(route ?? options.fallback, event)) as APIGatewayProxyResultV2;
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
        done(503);
        return;
      }
      if (error instanceof FunctionTimeout) log.error(`${method} ${url.pathname}: ${error.message}`);
      else log.error(`${method} ${url.pathname} failed: ${(error as Error).stack ?? error}`);
      sendJson(res, 500, { message: 'Internal Server Error' });
    }
    done(status);
  };
}
