import { once } from 'node:events';
import { type RequestOptions, request } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { WebSocket } from 'ws';
import type { Capability } from '../../functions/lib/capabilities';
import { httpContract } from '../../shared/contract/route';
import { quietLogger } from '../log';
import { freePort } from '../ports';
import type { LambdaHandler } from './functions';
import { createGateway, type GatewayOptions } from './index';

/**
 * A gateway for the gateway's own tests (http-api, websocket-api, connections, cloudfront, functions):
 * routes of its own and in-process handlers that report what they got. Not a test file itself.
 */

export const ORIGIN_SECRET = 'test-origin-secret';

/** The full local environment: a variable of every capability, and one every function has. */
export const environment = {
  TABLE_NAME: 'table',
  MAIL_FROM: 'from@example.test',
  JWT_SECRET: 'jwt',
  LOCAL_SECRETS_KEY: 'key',
  WS_CALLBACK_URL: 'http://callback',
};

const json = (body: unknown) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A handler that reports what its function sees: the environment's names and the request. */
const reporter: LambdaHandler = async (event) => {
  const { headers, queryStringParameters, rawQueryString, body, isBase64Encoded } = event as APIGatewayProxyEventV2;
  return json({
    variables: Object.keys(process.env).filter((name) => name in environment),
    headers,
    queryStringParameters,
    rawQueryString,
    // A large body only by its length.
    body: body && body.length > 100 ? undefined : body,
    bodyLength: body?.length ?? 0,
    isBase64Encoded,
  });
};

/** Answers a body of `?bytes=` bytes. */
const large: LambdaHandler = async (event) => ({
  statusCode: 200,
  headers: { 'content-type': 'text/plain' },
  body: 'x'.repeat(Number((event as APIGatewayProxyEventV2).queryStringParameters?.bytes ?? 0)),
});

/** The `slow` handler waits until the test releases it. */
let releaseSlow: () => void = () => {};
export const release = () => releaseSlow();
const slow: LambdaHandler = async () => {
  await new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });
  return json({ late: true });
};

export type ConnectEvent = {
  requestContext: { connectionId: string };
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
};

/**
 * What $connect saw. It tells `onConnect` its connection id, then waits while `hold` is set; it
 * answers the subprotocol `?subprotocol=` names, if any.
 */
export const connecting = {
  hold: undefined as Promise<void> | undefined,
  onConnect: (_connectionId: string) => {},
  connected: [] as string[],
  events: [] as ConnectEvent[],
};
const socketConnect: LambdaHandler = async (event) => {
  const connect = event as ConnectEvent;
  connecting.connected.push(connect.requestContext.connectionId);
  connecting.events.push(connect);
  connecting.onConnect(connect.requestContext.connectionId);
  await connecting.hold;
  const subprotocol = connect.queryStringParameters?.subprotocol;
  return subprotocol ? { statusCode: 200, headers: { 'Sec-WebSocket-Protocol': subprotocol } } : { statusCode: 200 };
};

/** Messages as the socket routes got them: the route's handler, the event's route key and the body. */
export const messages: { handler: string; routeKey: string; body: string }[] = [];
const messageRecorder =
  (handler: string): LambdaHandler =>
  async (event) => {
    const { requestContext, body } = event as { requestContext: { routeKey: string }; body: string };
    messages.push({ handler, routeKey: requestContext.routeKey, body });
    return { statusCode: 200 };
  };
const noop: LambdaHandler = async () => ({ statusCode: 200 });

const route = (path: string, handler: string, capabilities: Capability[], method: 'GET' | 'POST' = 'GET') => ({
  contract: httpContract({ method, path, auth: 'public' }),
  handler,
  table: 'none' as const,
  capabilities,
});

const socketRoute = (routeKey: string, handler: string) => ({
  contract: { kind: 'socket' as const, routeKey: routeKey as '$default', auth: 'public' as const },
  handler,
  table: 'none' as const,
  capabilities: [],
});

export async function startTestGateway(overrides: Partial<GatewayOptions> = {}) {
  const port = await freePort();
  const gateway = createGateway({
    log: quietLogger,
    environment,
    originSecret: ORIGIN_SECRET,
    timeoutMs: (r) => (r.timeoutSeconds ?? 10) * 20,
    routes: {
      http: [
        route('/mail', 'reporter', ['mail']),
        route('/nothing', 'reporter', []),
        { ...route('/slow', 'slow', []), timeoutSeconds: 5 },
        route('/echo', 'reporter', [], 'POST'),
        route('/large', 'large', []),
      ],
      socket: [
        socketRoute('$connect', 'connect'),
        socketRoute('$disconnect', 'noop'),
        socketRoute('$default', 'default'),
        // A custom route, as the WebSocket API would route `{"action":"whoami"}` to one keyed `whoami`.
        socketRoute('whoami', 'whoami'),
      ],
      // Answered by the gateway itself, as API Gateway answers a MOCK route (socketHeartbeat).
      answered: [
        {
          kind: 'socket-answered',
          routeKey: 'ping',
          answerTemplate:
            '{"type":"pong","at":"$context.requestTime","ms":$context.requestTimeEpoch,"id":"$context.connectionId"}',
        },
        // One-way, as socketQuietHeartbeat: no template, nothing sent back.
        { kind: 'socket-answered', routeKey: 'hush' },
      ],
      fallback: { handler: 'system/not-found', table: 'none', capabilities: [] },
    },
    handlers: {
      reporter,
      slow,
      large,
      connect: socketConnect,
      noop,
      default: messageRecorder('default'),
      whoami: messageRecorder('whoami'),
    },
    ...overrides,
  });
  await gateway.listen(port);
  return { url: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/ws`, close: gateway.close };
}

export type TestGateway = Awaited<ReturnType<typeof startTestGateway>>;

export function get(url: string, headers: Record<string, string> = {}, localAddress?: string) {
  return send(url, { headers, localAddress });
}

/** A POST as a client sends it: no Content-Type unless given. */
export function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return send(url, { method: 'POST', headers }, body);
}

function send(url: string, options: RequestOptions, body?: string | Buffer) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    request(url, options, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    })
      .on('error', reject)
      .end(body);
  });
}

/** Opens a socket and returns it with its connection id (the one $connect saw). */
export async function openSocket(url: string, protocols: string[] = [], headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, protocols, { headers });
  await once(ws, 'open');
  return { ws, connectionId: connecting.connected.at(-1) as string };
}

export const closeOf = async (ws: WebSocket) => {
  const [code] = (await once(ws, 'close')) as [number, Buffer];
  return code;
};
