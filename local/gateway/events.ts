import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type {
  APIGatewayProxyEventV2,
  APIGatewayRequestAuthorizerEvent,
  APIGatewayRequestAuthorizerEventV2,
  SQSEvent,
} from 'aws-lambda';
import type { SocketEvent } from '../../functions/lib/define-socket-handler';
import { isWellEncodedPath, matchPath } from '../../shared/contract/route';
import { asFromCloudFront } from './cloudfront';
import { headerValue, sourceIp } from './http-io';

/**
 * The Lambda events the gateway invokes functions with, built as API Gateway, SQS and their
 * authorizers build them; nothing here runs a function or answers a request.
 */

/**
 * HTTP API payload 2.0 hands a body over as text only when its content type is text: `text/*`,
 * `application/json`, `application/xml` or `application/javascript`. Any other body — no
 * Content-Type at all, a form (`application/x-www-form-urlencoded`), octets — arrives base64-encoded
 * with `isBase64Encoded: true`. AWS's guide says only "if the content type of the request is binary,
 * the body is base64-encoded" (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html);
 * the split is the one measured against a deployed HTTP API (github.com/ministackorg/ministack/pull/766).
 */
export function isTextual(contentType: string | undefined) {
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
export function queryParameters(search: URLSearchParams): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const key of new Set(search.keys())) out[key] = search.getAll(key).join(',');
  return Object.keys(out).length ? out : undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** API Gateway's `$context.requestTime`, in the Common Log Format it uses: `25/Nov/2026:10:59:00 +0000`. */
export function requestTime(date: Date): string {
  const day = `${two(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}`;
  return `${day}:${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/** An HTTP API payload 2.0 event for a request: `route` is the matched route's contract (none: `$default`). */
export function httpEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  route: { method: string; path: string } | undefined,
  originSecret: string | undefined,
): APIGatewayProxyEventV2 {
  const method = (req.method ?? 'GET').toUpperCase();
  const routeKey = route ? `${route.method} ${route.path}` : '$default';
  const headers = singleValueHeaders(req);
  asFromCloudFront(headers, req, originSecret);
  const textual = isTextual(headers['content-type']);
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie?.split(';').map((c) => c.trim()),
    headers,
    queryStringParameters: queryParameters(url.searchParams),
    pathParameters: route ? matchPath(route.path, url.pathname) : undefined,
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
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

/** A WebSocket API event; `connectedAt` is the connection's, or now for one the gateway no longer holds. */
export function socketEvent(
  routeKey: string,
  eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
  connectionId: string,
  connectedAt: Date | undefined,
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
      connectedAt: connectedAt?.getTime() ?? Date.now(),
      requestTimeEpoch: Date.now(),
      requestId: randomUUID(),
      domainName: 'localhost',
      apiId: 'local',
    },
    isBase64Encoded: false,
    ...extra,
  } as SocketEvent;
}

/** An SQS event source mapping's event: one message, its `attempt`th receive. */
export function sqsEvent(queue: string, messageId: string, body: string, md5: string, attempt: number): SQSEvent {
  return {
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
        eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
        awsRegion: 'local',
      },
    ],
  };
}

/** An HTTP API's REQUEST authorizer event (payload 2.0): the request without its body, and its identity. */
export function httpAuthorizerEvent(event: APIGatewayProxyEventV2, identity: string): APIGatewayRequestAuthorizerEventV2 {
  const { body: _body, isBase64Encoded: _encoded, ...request } = event;
  return {
    ...request,
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${event.requestContext.http.method}${event.rawPath}`,
    identitySource: [identity],
    cookies: event.cookies ?? [],
  };
}

/** A WebSocket API's REQUEST authorizer event on `$connect`: REST-style, with single and multi-value maps. */
export function connectAuthorizerEvent(event: SocketEvent, ip: string): APIGatewayRequestAuthorizerEvent {
  const headers = (event.headers ?? {}) as Record<string, string>;
  const query = event.queryStringParameters ?? null;
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:000000000000:local/${event.requestContext.stage}/$connect`,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: query,
    multiValueQueryStringParameters: query && Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]])),
    stageVariables: null,
    requestContext: {
      ...event.requestContext,
      identity: { sourceIp: ip, userAgent: headerValue(headers, 'user-agent') ?? '' },
    },
  } as unknown as APIGatewayRequestAuthorizerEvent;
}
