import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../functions/lib/capabilities';
import { httpContract } from '../shared/contract/route';
import { createGateway, type GatewayOptions } from './gateway';
import { quietLogger } from './log';
import { freePort } from './ports';

/**
 * The gateway runs each function as Lambda does, in execution environments of its own
 * (local/function-environments.ts), here with the fixture functions of local/fixtures/functions.
 */
const environment = { TABLE_NAME: 'table', MAIL_FROM: 'from@example.test', JWT_SECRET: 'jwt' };

const route = (path: string, handler: string, capabilities: Capability[] = [], timeoutSeconds?: number) => ({
  contract: httpContract({ method: 'GET', path, auth: 'public' }),
  handler,
  table: 'none' as const,
  capabilities,
  timeoutSeconds,
});

async function startGateway(overrides: Partial<GatewayOptions> = {}) {
  const port = await freePort();
  const gateway = createGateway({
    log: quietLogger,
    environment,
    // Each second of a route's timeout is 100 ms here: `wait` (1 s) times out after 100 ms, `hold` after 60 s.
    timeoutMs: (r) => (r.timeoutSeconds ?? 10) * 100,
    routes: {
      http: [
        route('/first', 'first', ['mail']),
        route('/second', 'second'),
        route('/wait', 'wait', [], 1),
        route('/hold', 'hold', [], 600),
      ],
      socket: [],
      fallback: { handler: 'not-found', table: 'none', capabilities: [] },
    },
    entryOf: (handler) => `local/fixtures/functions/${handler}.ts`,
    ...overrides,
  });
  await gateway.listen(port);
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: res.status, body: await res.json() };
  };
  return { get, stats: gateway.functionStats, close: gateway.close };
}

/** A URL whose requests are held until `release`: a function that fetches it stays busy until then. */
async function latch() {
  const held: ServerResponse[] = [];
  const server = createServer((_, res) => held.push(res));
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    query: `until=${encodeURIComponent(`http://127.0.0.1:${port}/`)}`,
    held: () => held.length,
    release: () => {
      for (const res of held.splice(0)) res.end('released');
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('functions in environments of their own', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  it('do not share module state: two functions importing one module each count from one', async () => {
    expect((await gateway.get('/first')).body).toMatchObject({ invocations: 1 });
    expect((await gateway.get('/first')).body).toMatchObject({ invocations: 2 });
    // The same module, imported by another function: its own copy, in another thread.
    const second = await gateway.get('/second');
    expect(second.body).toMatchObject({ invocations: 1 });
    expect(second.body.threadId).not.toBe((await gateway.get('/first')).body.threadId);
  });

  it("see only their route's variables", async () => {
    expect((await gateway.get('/first')).body).toMatchObject({ table: 'table', mail: 'from@example.test' });
    expect((await gateway.get('/second')).body).toMatchObject({ table: 'table', mail: null });
  });

  it('discard an environment that timed out: the next invocation starts cold, its module state new', async () => {
    expect(await gateway.get('/wait')).toEqual({ status: 200, body: { invocations: 1 } });
    expect(await gateway.get('/wait')).toEqual({ status: 200, body: { invocations: 2 } });
    // Past the function's timeout: API Gateway answers 500 for the failed function.
    expect(await gateway.get('/wait?ms=5000')).toEqual({ status: 500, body: { message: 'Internal Server Error' } });
    expect(await gateway.get('/wait')).toEqual({ status: 200, body: { invocations: 1 } });
    const stats = (await gateway.stats()).wait;
    expect(stats).toMatchObject({ environments: 2, live: 1, timeouts: 1, invocations: 4 });
    // The timed-out invocation counts as run until its timeout (100 ms here).
    expect(stats?.runMs).toBeGreaterThanOrEqual(100);
  });

  it('get another environment for each concurrent invocation, each a cold start', async () => {
    // Each holds its environment until released: none comes free for the others. Five at once is more
    // cold starts than there are start slots (one per core), so some wait for a slot.
    const held = await latch();
    const answers = Promise.all([1, 2, 3, 4, 5].map(() => gateway.get(`/hold?${held.query}`)));
    await expect.poll(held.held, { timeout: 30_000 }).toBe(5);
    held.release();
    expect((await answers).map((a) => a.body.invocations)).toEqual([1, 1, 1, 1, 1]);
    await held.close();
    const stats = (await gateway.stats()).hold;
    expect(stats).toMatchObject({ environments: 5, live: 5, peakConcurrency: 5, invocations: 5 });
    expect(stats?.initMs).toHaveLength(5);
  });
});

describe('a function whose environments are all busy', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway({
      environmentsPerFunction: 1,
      // A bound of 300 ms instead of API Gateway's 30 s, and a timeout long enough to hold the one environment.
      integrationTimeoutMs: 300,
      timeoutMs: () => 10_000,
    });
  });
  afterAll(() => gateway.close());

  it('makes the next invocation wait for it, and answers 503 once API Gateway would have given up', async () => {
    const held = await latch();
    const holding = gateway.get(`/wait?${held.query}`);
    await expect.poll(held.held, { timeout: 30_000 }).toBe(1);
    expect(await gateway.get('/wait')).toEqual({ status: 503, body: { message: 'Service Unavailable' } });
    held.release();
    expect(await holding).toEqual({ status: 200, body: { invocations: 1 } });
    await held.close();
    // Free again: the same warm environment answers.
    expect(await gateway.get('/wait')).toEqual({ status: 200, body: { invocations: 2 } });
    // Two waited: the first for its cold start, the second for the busy environment, until refused.
    expect((await gateway.stats()).wait).toMatchObject({ environments: 1, queued: 2, throttled: 1 });
  });
});
