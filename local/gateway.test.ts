import { once } from 'node:events';
import { request } from 'node:http';
import {
  ApiGatewayManagementApiClient,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Capability } from '../functions/lib/capabilities';
import { httpContract } from '../shared/contract/route';
import { createGateway, type GatewayOptions, type LambdaHandler } from './gateway';
import { quietLogger } from './log';
import { freePort } from './ports';

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

/** A handler that reports what its function sees: the environment's names and the request headers. */
const reporter: LambdaHandler = async (event) =>
  json({
    variables: Object.keys(process.env).filter((name) => name in environment),
    headers: (event as APIGatewayProxyEventV2).headers,
  });

/** The `slow` handler waits until the test releases it. */
let releaseSlow: () => void = () => {};
const slow: LambdaHandler = async () => {
  await new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });
  return json({ late: true });
};

/** $connect tells `onConnect` its connection id, then waits while `holdConnect` is set. */
let holdConnect: Promise<void> | undefined;
let onConnect: (connectionId: string) => void = () => {};
const connected: string[] = [];
const socketConnect: LambdaHandler = async (event) => {
  const { connectionId } = (event as { requestContext: { connectionId: string } }).requestContext;
  connected.push(connectionId);
  onConnect(connectionId);
  await holdConnect;
  return { statusCode: 200 };
};
const noop: LambdaHandler = async () => ({ statusCode: 200 });

const route = (path: string, handler: string, capabilities: Capability[]) => ({
  contract: httpContract({ method: 'GET', path, auth: 'public' }),
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
        { contract: { kind: 'socket', routeKey: '$default', auth: 'public' }, handler: 'noop', table: 'none', capabilities: [] },
      ],
      fallback: { handler: 'system/not-found', table: 'none', capabilities: [] },
    },
    handlers: { reporter, slow, connect: socketConnect, noop },
    ...overrides,
  });
  await gateway.listen(port);
  return { url: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/ws`, close: gateway.close };
}

function get(url: string, headers: Record<string, string> = {}, localAddress?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    request(url, { headers, localAddress }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** Opens a socket and returns it with its connection id (the one $connect saw). */
async function openSocket(url: string) {
  const ws = new WebSocket(url);
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
