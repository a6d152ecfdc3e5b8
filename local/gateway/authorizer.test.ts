import { once } from 'node:events';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ORIGIN_SECRET_HEADER } from '../../functions/lib/config';
import type { SocketEvent } from '../../functions/lib/define-socket-handler';
import { originAuthorizer } from '../../functions/routes';
import { handlerEntry } from '../../infra/bundling';
import { httpContract } from '../../shared/contract/route';
import { quietLogger } from '../log';
import { freePort } from '../ports';
import { createAuthorizer } from './authorizer';
import { createGateway, type GatewayOptions } from './index';

/**
 * The local gateway runs the route table's origin authorizer (functions/handlers/system/origin-authorizer.ts)
 * in an environment of its own, as API Gateway runs it in front of every HTTP route and `$connect`;
 * the routes here are the fixture functions of local/fixtures/functions.
 */
const ORIGIN_SECRET = 'the-origin-secret';
const environment = { TABLE_NAME: 'table', ORIGIN_SECRET, ORIGIN_SECRET_PREVIOUS: 'the-previous-secret' };

const socketRoute = (routeKey: '$connect' | '$disconnect' | '$default') => ({
  contract: { kind: 'socket' as const, routeKey, auth: 'public' as const },
  handler: 'second',
  table: 'none' as const,
  capabilities: [],
});

async function startGateway(overrides: Partial<GatewayOptions> = {}) {
  const port = await freePort();
  const gateway = createGateway({
    log: quietLogger,
    environment,
    routes: {
      http: [
        {
          contract: httpContract({ method: 'GET', path: '/first', auth: 'public' }),
          handler: 'first',
          table: 'none',
          capabilities: [],
        },
      ],
      socket: [socketRoute('$connect'), socketRoute('$disconnect'), socketRoute('$default')],
      fallback: { handler: 'not-found', table: 'none', capabilities: [] },
      authorizer: originAuthorizer,
    },
    entryOf: (handler) =>
      handler === originAuthorizer.handler ? handlerEntry(handler) : `local/fixtures/functions/${handler}.ts`,
    ...overrides,
  });
  await gateway.listen(port);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    return { status: res.status, body: await res.json() };
  };
  /** 'open', or the status the handshake was refused with. */
  const connect = (headers: Record<string, string> = {}) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
      ws.on('open', () => {
        ws.close();
        once(ws, 'close').then(() => resolve('open'));
      });
      ws.on('unexpected-response', (_, res) => resolve(`handshake ${res.statusCode}`));
      ws.on('error', () => {});
    });
  const invocations = async () =>
    Object.fromEntries(Object.entries(await gateway.functionStats()).map(([name, stats]) => [name, stats.invocations]));
  return { get, connect, invocations, close: gateway.close };
}

describe('the origin authorizer behind the local CloudFront', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway({ originSecret: ORIGIN_SECRET });
  });
  afterAll(() => gateway.close());

  it('admits every request, running once for many as API Gateway keeps its answer', async () => {
    expect((await gateway.get('/first')).status).toBe(200);
    expect((await gateway.get('/first')).status).toBe(200);
    // Another route, the same kept answer.
    expect(await gateway.get('/elsewhere')).toEqual({ status: 404, body: { message: 'Not Found' } });
    expect(await gateway.invocations()).toEqual({ first: 2, 'not-found': 1, [originAuthorizer.handler]: 1 });
  });

  it('runs on every $connect, which it admits', async () => {
    const before = (await gateway.invocations())[originAuthorizer.handler] ?? 0;
    expect(await gateway.connect()).toBe('open');
    expect(await gateway.connect()).toBe('open');
    expect((await gateway.invocations())[originAuthorizer.handler]).toBe(before + 2);
  });
});

describe('the origin authorizer on a call straight to the execute-api endpoint', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway({ originSecret: undefined });
  });
  afterAll(() => gateway.close());

  it('is not even invoked without the header: API Gateway answers 401 itself', async () => {
    expect(await gateway.get('/first')).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    expect(await gateway.get('/elsewhere')).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    expect(await gateway.get('/first', { [ORIGIN_SECRET_HEADER]: '' })).toEqual({
      status: 401,
      body: { message: 'Unauthorized' },
    });
    expect(await gateway.connect()).toBe('handshake 401');
    expect(await gateway.invocations()).toEqual({});
  });

  it('refuses a guessed secret 403 and runs no route function; the previous secret still gets in', async () => {
    expect(await gateway.get('/first', { [ORIGIN_SECRET_HEADER]: 'a-guess' })).toEqual({
      status: 403,
      body: { message: 'Forbidden' },
    });
    expect(await gateway.get('/first', { 'X-Switchboard-Origin': 'another-guess' })).toEqual({
      status: 403,
      body: { message: 'Forbidden' },
    });
    expect(await gateway.connect({ [ORIGIN_SECRET_HEADER]: 'a-guess' })).toBe('handshake 403');
    expect(await gateway.invocations()).toEqual({ [originAuthorizer.handler]: 3 });

    expect((await gateway.get('/first', { [ORIGIN_SECRET_HEADER]: 'the-previous-secret' })).status).toBe(200);
    expect(await gateway.connect({ [ORIGIN_SECRET_HEADER]: 'the-previous-secret' })).toBe('open');
  });
});

describe('the authorizer alone, its function stood in for', () => {
  const entry = { ...originAuthorizer, resultTtlSeconds: 300 };
  const http = (identity?: string) =>
    ({
      headers: identity === undefined ? {} : { [ORIGIN_SECRET_HEADER]: identity },
      rawPath: '/first',
      requestContext: { http: { method: 'GET' } },
    }) as unknown as APIGatewayProxyEventV2;
  const connect = (identity?: string) =>
    ({
      headers: identity === undefined ? { Host: 'h' } : { 'X-Switchboard-Origin': identity },
      requestContext: { stage: 'ws' },
    }) as unknown as SocketEvent;
  const authorizerOf = (answer: (event: unknown) => unknown) => {
    const events: unknown[] = [];
    const log = { ...quietLogger, error: () => {} };
    const authorizer = createAuthorizer(
      entry,
      async (_route, event) => {
        events.push(event);
        return answer(event);
      },
      log,
    );
    return { authorizer, events };
  };

  it('lets everything through when there is none', async () => {
    const none = createAuthorizer(undefined, async () => ({}), quietLogger);
    expect(await none.http(http())).toBeUndefined();
    expect(await none.connect(connect(), '127.0.0.1')).toBeUndefined();
  });

  it('keeps an HTTP answer per identity for its TTL, the refusals as the admissions', async () => {
    const { authorizer, events } = authorizerOf((event) => ({
      isAuthorized: (event as { identitySource: string[] }).identitySource[0] === 'right',
    }));
    expect(await authorizer.http(http('right'))).toBeUndefined();
    expect(await authorizer.http(http('right'))).toBeUndefined();
    expect(await authorizer.http(http('wrong'))).toBe(403);
    expect(await authorizer.http(http('wrong'))).toBe(403);
    expect(events).toHaveLength(2);
  });

  it('answers 500 for a failing authorizer or one that answers without isAuthorized, and keeps neither', async () => {
    let answer: unknown = { allowed: true };
    const { authorizer, events } = authorizerOf(() => {
      if (answer instanceof Error) throw answer;
      return answer;
    });
    expect(await authorizer.http(http('x'))).toBe(500);
    answer = new Error('down');
    expect(await authorizer.http(http('x'))).toBe(500);
    expect(await authorizer.connect(connect('x'), '127.0.0.1')).toBe(500);
    expect(events).toHaveLength(3);
  });

  it('admits $connect only on a policy that allows and denies nothing, asking every time', async () => {
    const statements = [[{ Effect: 'Allow' }], [{ Effect: 'Allow' }, { Effect: 'Deny' }], [{ Effect: 'Deny' }], []];
    let next = 0;
    const { authorizer, events } = authorizerOf(() => ({ policyDocument: { Statement: statements[next++] } }));
    const verdicts = [];
    for (const _ of statements) verdicts.push(await authorizer.connect(connect('x'), '127.0.0.1'));
    expect(verdicts).toEqual([undefined, 403, 403, 403]);
    expect(await authorizer.connect(connect(), '127.0.0.1')).toBe(401);
    expect(events).toHaveLength(4);
  });
});
