import { once } from 'node:events';
import { type RequestOptions, request } from 'node:http';
import {
  ApiGatewayManagementApiClient,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Capability } from '../../functions/lib/capabilities';
import { httpContract } from '../../shared/contract/route';
import { quietLogger } from '../log';
import { freePort } from '../ports';
import {
  createGateway,
  type GatewayOptions,
  type LambdaHandler,
  MAX_INVOCATION_REQUEST_BYTES,
  MAX_INVOCATION_RESPONSE_BYTES,
  requestTime,
} from './index';

const ORIGIN_SECRET = 'test-origin-secret';

/** The full local environment: a variable of every capability, and one every function has. */
const environment = {
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
const slow: LambdaHandler = async () => {
  await new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });
  return json({ late: true });
};

type ConnectEvent = {
  requestContext: { connectionId: string };
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
};

/**
 * $connect tells `onConnect` its connection id, then waits while `holdConnect` is set; it answers the
 * subprotocol `?subprotocol=` names, if any.
 */
let holdConnect: Promise<void> | undefined;
let onConnect: (connectionId: string) => void = () => {};
const connected: string[] = [];
const connectEvents: ConnectEvent[] = [];
const socketConnect: LambdaHandler = async (event) => {
  const connect = event as ConnectEvent;
  connected.push(connect.requestContext.connectionId);
  connectEvents.push(connect);
  onConnect(connect.requestContext.connectionId);
  await holdConnect;
  const subprotocol = connect.queryStringParameters?.subprotocol;
  return subprotocol ? { statusCode: 200, headers: { 'Sec-WebSocket-Protocol': subprotocol } } : { statusCode: 200 };
};

/** Messages as the socket routes got them: the route's handler, the event's route key and the body. */
const messages: { handler: string; routeKey: string; body: string }[] = [];
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

async function startGateway(overrides: Partial<GatewayOptions> = {}) {
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
        {
          contract: { kind: 'socket', routeKey: '$connect', auth: 'public' },
          handler: 'connect',
          table: 'none',
          capabilities: [],
        },
        {
          contract: { kind: 'socket', routeKey: '$disconnect', auth: 'public' },
          handler: 'noop',
          table: 'none',
          capabilities: [],
        },
        {
          contract: { kind: 'socket', routeKey: '$default', auth: 'public' },
          handler: 'default',
          table: 'none',
          capabilities: [],
        },
        // A custom route, as the WebSocket API would route `{"action":"whoami"}` to one keyed `whoami`.
        {
          contract: { kind: 'socket', routeKey: 'whoami' as '$default', auth: 'public' },
          handler: 'whoami',
          table: 'none',
          capabilities: [],
        },
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

function get(url: string, headers: Record<string, string> = {}, localAddress?: string) {
  return send(url, { headers, localAddress });
}

/** A POST as a client sends it: no Content-Type unless given. */
function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
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
async function openSocket(url: string, protocols: string[] = [], headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, protocols, { headers });
  await once(ws, 'open');
  return { ws, connectionId: connected.at(-1) as string };
}

const closeOf = async (ws: WebSocket) => {
  const [code] = (await once(ws, 'close')) as [number, Buffer];
  return code;
};

describe('local gateway', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  describe('functions', () => {
    it('give each handler only the environment of its declared capabilities', async () => {
      const mail = JSON.parse((await get(`${gw.url}/mail`)).body);
      expect(mail.variables.sort()).toEqual(['MAIL_FROM', 'TABLE_NAME']);
      const nothing = JSON.parse((await get(`${gw.url}/nothing`)).body);
      expect(nothing.variables).toEqual(['TABLE_NAME']);
    });

    it("answers a function's timeout as API Gateway answers a function error", async () => {
      const res = await get(`${gw.url}/slow`);
      expect(res).toEqual({ status: 500, body: JSON.stringify({ message: 'Internal Server Error' }) });
      releaseSlow();
    });
  });

  describe('as CloudFront in front of the API', () => {
    it('records the address a request came from and adds the origin secret, whatever the client sent', async () => {
      const res = await get(
        `${gw.url}/nothing`,
        { 'cloudfront-viewer-address': '203.0.113.9:443', 'x-switchboard-origin': 'guessed' },
        '127.9.8.7',
      );
      const { headers } = JSON.parse(res.body);
      expect(headers['cloudfront-viewer-address']).toMatch(/^127\.9\.8\.7:\d+$/);
      expect(headers['x-switchboard-origin']).toBe(ORIGIN_SECRET);
    });

    it("gives $connect the headers' names as the client sent them, in headers and multiValueHeaders", async () => {
      const { ws } = await openSocket(gw.ws, [], {
        'X-Client-Thing': 'one',
        'X-Switchboard-Origin': 'guessed',
        'CloudFront-Viewer-Address': '203.0.113.9:443',
      });
      ws.close();
      const { headers, multiValueHeaders } = connectEvents.at(-1) as ConnectEvent;
      expect(headers).toMatchObject({ Host: expect.any(String), 'Sec-WebSocket-Version': '13', 'X-Client-Thing': 'one' });
      expect(headers['sec-websocket-version']).toBeUndefined();
      expect(multiValueHeaders).toMatchObject({ 'Sec-WebSocket-Version': ['13'], 'X-Client-Thing': ['one'] });
      // CloudFront's own: the secret under the name it is configured with, the address as CloudFront names it.
      expect(headers['x-switchboard-origin']).toBe(ORIGIN_SECRET);
      expect(headers['X-Switchboard-Origin']).toBeUndefined();
      expect(headers['CloudFront-Viewer-Address']).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(multiValueHeaders['CloudFront-Viewer-Address']).toEqual([headers['CloudFront-Viewer-Address']]);
    });
  });

  describe('payload 2.0 events, as an HTTP API builds them', () => {
    it('comma-joins a repeated query parameter and keeps the query as sent in rawQueryString', async () => {
      const res = JSON.parse((await get(`${gw.url}/nothing?tag=a&tag=b%2Cc&page=2`)).body);
      expect(res.queryStringParameters).toEqual({ tag: 'a,b,c', page: '2' });
      expect(res.rawQueryString).toBe('tag=a&tag=b%2Cc&page=2');
    });

    it('hands over text bodies as text, and any other (no Content-Type, a form, octets) base64-encoded', async () => {
      const sent = async (headers: Record<string, string>) => {
        const { body, isBase64Encoded } = JSON.parse((await post(`${gw.url}/echo`, 'a=1&b=2', headers)).body);
        return { body, isBase64Encoded };
      };
      const base64 = { body: Buffer.from('a=1&b=2').toString('base64'), isBase64Encoded: true };
      const text = { body: 'a=1&b=2', isBase64Encoded: false };
      expect(await sent({})).toEqual(base64);
      expect(await sent({ 'content-type': 'application/x-www-form-urlencoded' })).toEqual(base64);
      expect(await sent({ 'content-type': 'application/octet-stream' })).toEqual(base64);
      expect(await sent({ 'content-type': 'text/plain; charset=utf-8' })).toEqual(text);
      expect(await sent({ 'content-type': 'application/json' })).toEqual(text);
      expect(await sent({ 'content-type': 'application/xml' })).toEqual(text);
    });

    it("answers 413 for a request whose event is over Lambda's 6 MB, its body counted base64-encoded", async () => {
      // 4.5 MB of octets is 6 MB base64-encoded: over, though the body itself is well under.
      const over = Buffer.alloc((MAX_INVOCATION_REQUEST_BYTES / 4) * 3);
      expect(await post(`${gw.url}/echo`, over, { 'content-type': 'application/octet-stream' })).toEqual({
        status: 413,
        body: JSON.stringify({ message: 'Request Entity Too Large' }),
      });
      const under = Buffer.alloc(4 * 1024 * 1024);
      const res = await post(`${gw.url}/echo`, under, { 'content-type': 'application/octet-stream' });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ bodyLength: under.toString('base64').length, isBase64Encoded: true });
    });

    it("answers a function's answer over Lambda's 6 MB as a function error", async () => {
      const over = await get(`${gw.url}/large?bytes=${MAX_INVOCATION_RESPONSE_BYTES}`);
      expect(over).toEqual({ status: 500, body: JSON.stringify({ message: 'Internal Server Error' }) });
      const under = await get(`${gw.url}/large?bytes=${5 * 1024 * 1024}`);
      expect(under.status).toBe(200);
      expect(under.body).toHaveLength(5 * 1024 * 1024);
    });
  });

  describe('paths', () => {
    it.each(['/api/v1/inboxes/%', '/api/v1/inboxes/%E0%A4%A', '/%'])('answers %s with a 4xx envelope', async (path) => {
      const res = await get(`${gw.url}${path}`);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
    });
  });

  describe('sockets', () => {
    const management = () =>
      new ApiGatewayManagementApiClient({
        endpoint: gw.url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
      });

    it('closes a frame over 32 KB with 1009 and a binary frame with 1003', async () => {
      const big = await openSocket(gw.ws);
      big.ws.send('x'.repeat(32 * 1024 + 1));
      expect(await closeOf(big.ws)).toBe(1009);
      const binary = await openSocket(gw.ws);
      binary.ws.send(Buffer.from([1, 2, 3]));
      expect(await closeOf(binary.ws)).toBe(1003);
    });

    it('answers @connections as the SDK expects: fields, 410 GoneException, 413 over 128 KB', async () => {
      const { ws, connectionId } = await openSocket(gw.ws);
      const client = management();
      const info = await client.send(new GetConnectionCommand({ ConnectionId: connectionId }));
      expect(info.ConnectedAt).toBeInstanceOf(Date);
      expect(info.LastActiveAt).toBeInstanceOf(Date);
      expect(info.Identity).toEqual({ SourceIp: '127.0.0.1', UserAgent: expect.any(String) });

      const tooLarge = await client
        .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array(128 * 1024 + 1) }))
        .catch((error) => error);
      expect(tooLarge.$metadata.httpStatusCode).toBe(413);

      const received = once(ws, 'message');
      await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode('hi') }));
      expect(String((await received)[0])).toBe('hi');

      ws.close();
      await once(ws, 'close');
      const gone = await client
        .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array(1) }))
        .catch((error) => error);
      expect(gone).toBeInstanceOf(GoneException);
    });

    it('answers with a subprotocol only when $connect returns one', async () => {
      const chosen = await openSocket(`${gw.ws}?subprotocol=switchboard.v2`, ['switchboard.v1', 'switchboard.v2']);
      expect(chosen.ws.protocol).toBe('switchboard.v2');
      chosen.ws.close();
      // Asked for one, $connect returned none: API Gateway picks none, and the client fails the handshake.
      const refused = new WebSocket(gw.ws, ['switchboard.v1']);
      const [error] = (await once(refused, 'error').catch((e) => [e])) as [Error];
      expect(error.message).toBe('Server sent no subprotocol');
      // Asked for none: none.
      const plain = await openSocket(gw.ws);
      expect(plain.ws.protocol).toBe('');
      plain.ws.close();
    });

    it("routes a message by its JSON body's action, and anything else to $default", async () => {
      const { ws } = await openSocket(gw.ws);
      const sent = ['{"action":"whoami"}', '{"action":"nobody"}', 'not json', '{"action":"$connect"}', '{"type":"heartbeat"}'];
      messages.length = 0;
      for (const body of sent) ws.send(body);
      await expect.poll(() => messages.length).toBe(sent.length);
      ws.close();
      const routeOf = (body: string) => messages.find((m) => m.body === body);
      expect(routeOf('{"action":"whoami"}')).toMatchObject({ handler: 'whoami', routeKey: 'whoami' });
      for (const body of sent.slice(1)) expect(routeOf(body)).toMatchObject({ handler: 'default', routeKey: '$default' });
    });

    it('answers a MOCK route from its template itself, invoking no function', async () => {
      const { ws } = await openSocket(gw.ws);
      messages.length = 0;
      const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())));
      const before = Date.now();
      ws.send('{"action":"ping","type":"heartbeat"}');
      const pong = JSON.parse(await answer);
      expect(pong).toEqual({ type: 'pong', at: requestTime(new Date(pong.ms)), ms: expect.any(Number), id: expect.any(String) });
      expect(pong.ms).toBeGreaterThanOrEqual(before);
      expect(pong.at).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
      // A message after it still reaches $default: the ping was answered without one.
      ws.send('{"type":"heartbeat"}');
      await expect.poll(() => messages.length).toBe(1);
      expect(messages[0]).toMatchObject({ handler: 'default', body: '{"type":"heartbeat"}' });
      ws.close();
    });

    it('takes a one-way MOCK route itself: nothing sent back, no function invoked', async () => {
      const { ws } = await openSocket(gw.ws);
      messages.length = 0;
      const frames: string[] = [];
      ws.on('message', (data) => frames.push(data.toString()));
      ws.send('{"action":"hush","type":"heartbeat"}');
      // Frames on one socket are taken in order: the ping's answer comes first, so the hush had none.
      ws.send('{"action":"ping","type":"heartbeat"}');
      await expect.poll(() => frames.length).toBe(1);
      expect(JSON.parse(frames[0] as string)).toMatchObject({ type: 'pong' });
      ws.send('{"type":"heartbeat"}');
      await expect.poll(() => messages.length).toBe(1);
      expect(messages).toEqual([{ handler: 'default', routeKey: '$default', body: '{"type":"heartbeat"}' }]);
      ws.close();
    });

    it('answers 410 while $connect still runs', async () => {
      let release: () => void = () => {};
      holdConnect = new Promise((resolve) => {
        release = resolve;
      });
      const connecting = new Promise<string>((resolve) => {
        onConnect = resolve;
      });
      const ws = new WebSocket(gw.ws);
      const connectionId = await connecting;
      const during = await management()
        .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array(1) }))
        .catch((error) => error);
      expect(during).toBeInstanceOf(GoneException);
      holdConnect = undefined;
      release();
      await once(ws, 'open');
      ws.close();
    });
  });

  describe('socket limits', () => {
    it('closes an idle socket, and any socket at the end of its lifetime', async () => {
      const idle = await startGateway({ socketIdleMs: 100, socketLifetimeMs: 60_000 });
      const lifetime = await startGateway({ socketIdleMs: 60_000, socketLifetimeMs: 150 });
      try {
        const quiet = await openSocket(idle.ws);
        expect(await closeOf(quiet.ws)).toBe(1001);
        const busy = await openSocket(lifetime.ws);
        const chatter = setInterval(() => busy.ws.send('{"type":"heartbeat","data":{}}'), 20);
        expect(await closeOf(busy.ws)).toBe(1001);
        clearInterval(chatter);
      } finally {
        await idle.close();
        await lifetime.close();
      }
    });
  });
});

describe('scheduled jobs', () => {
  it('run once per runScheduled, with the schedule’s input and only their capabilities’ environment', async () => {
    const runs: { event: unknown; variables: string[] }[] = [];
    const gateway = createGateway({
      log: quietLogger,
      environment,
      routes: {
        http: [],
        socket: [],
        fallback: { handler: 'system/not-found', table: 'none', capabilities: [] },
        scheduled: [{ handler: 'sweep', schedule: 'channelHealth', table: 'none', capabilities: ['publish'] }],
      },
      handlers: {
        sweep: async (event) => {
          runs.push({ event, variables: Object.keys(process.env).filter((name) => name in environment) });
        },
      },
    });
    await gateway.listen(await freePort());
    try {
      // Nothing runs by itself: the local stack's timer (npm start only) asks.
      expect(runs).toEqual([]);
      await gateway.runScheduled('channelHealth', { intervalMinutes: 15 });
      expect(runs).toEqual([{ event: { intervalMinutes: 15 }, variables: ['TABLE_NAME', 'WS_CALLBACK_URL'] }]);
    } finally {
      await gateway.close();
    }
  });
});
