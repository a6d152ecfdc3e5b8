import { createServer, type ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../functions/lib/capabilities';
import { httpContract } from '../shared/contract/route';
import { handler as sdkCalls } from './fixtures/functions/sdk-calls';
import { environmentLimits } from './function-environments';
import { createGateway, type GatewayOptions, type LambdaHandler } from './gateway';
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
        // 2 s: room for the SDK's first call in a new environment, when nothing is held.
        route('/sdk-calls', 'sdk-calls', [], 20),
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
  return { get, stats: gateway.functionStats, close: gateway.close, warm: gateway.warmFunctions };
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
    // As Lambda: a new environment at once for each concurrent invocation, five of them.
    gateway = await startGateway({ environmentsPerFunction: 5, warmWaitMs: 0 });
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

/**
 * A stand-in for @connections that records the posts it gets, holding each `first` (unanswered) while
 * `holding`; it tells which held posts the caller gave up on (their connection closed) and answers the
 * held ones on `release`.
 */
async function connectionsStandIn() {
  const posts: string[] = [];
  const held: ServerResponse[] = [];
  let abandoned = 0;
  let answered = 0;
  const state = { holding: true };
  const server = createServer((req, res) => {
    const id = decodeURIComponent(req.url?.split('/').pop() ?? '');
    posts.push(id);
    res.on('finish', () => {
      answered += 1;
    });
    if (id === 'first' && state.holding) {
      held.push(res);
      res.on('close', () => {
        if (!res.writableFinished) abandoned += 1;
      });
    } else res.end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    state,
    query: `endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}`,
    posts: () => [...posts],
    abandoned: () => abandoned,
    answered: () => answered,
    release: () => {
      for (const res of held.splice(0)) if (!res.destroyed) res.end();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An invocation that is not held makes both posts; the one that timed out before it made only its first. */
async function expectOnlyTheNextMadeASecond(
  gateway: Awaited<ReturnType<typeof startGateway>>,
  connections: Awaited<ReturnType<typeof connectionsStandIn>>,
) {
  connections.state.holding = false;
  expect(await gateway.get(`/sdk-calls?${connections.query}`)).toEqual({ status: 200, body: { posted: 2 } });
  expect(connections.posts()).toEqual(['first', 'first', 'second']);
}

describe('an AWS SDK call in flight at the timeout', () => {
  it('is cut off with the environment: the function makes no call after it', async () => {
    const gateway = await startGateway();
    const connections = await connectionsStandIn();
    try {
      expect(await gateway.get(`/sdk-calls?${connections.query}`)).toEqual({
        status: 500,
        body: { message: 'Internal Server Error' },
      });
      // The environment ended with the function's timeout, and its connection to the held post with it.
      await expect.poll(connections.abandoned, { timeout: 10_000 }).toBe(1);
      connections.release();
      // The next invocation (a new environment) makes both posts; the timed-out one never made its second.
      await expectOnlyTheNextMadeASecond(gateway, connections);
    } finally {
      await connections.close();
      await gateway.close();
    }
  });

  it('in-process, never answers the function once it has timed out: no call after it either', async () => {
    const gateway = await startGateway({ handlers: { 'sdk-calls': sdkCalls as LambdaHandler } });
    const connections = await connectionsStandIn();
    try {
      expect(await gateway.get(`/sdk-calls?${connections.query}`)).toEqual({
        status: 500,
        body: { message: 'Internal Server Error' },
      });
      // Not stopped in-process: the held post is answered after the timeout...
      connections.release();
      await expect.poll(connections.answered, { timeout: 10_000 }).toBe(1);
      // ...but the timed-out function never sees that answer, so it never posts its second.
      await expectOnlyTheNextMadeASecond(gateway, connections);
    } finally {
      await connections.close();
      await gateway.close();
    }
  });
});

describe("the limits, from the machine's cores", () => {
  it('are one environment per core for a function (at least two) and eight per core in all', () => {
    expect(environmentLimits(1)).toEqual({ perFunction: 2, total: 48 });
    expect(environmentLimits(2)).toEqual({ perFunction: 2, total: 96 });
    expect(environmentLimits(8)).toEqual({ perFunction: 8, total: 384 });
  });

  it('give way to the ones set (LOCAL_FUNCTION_CONCURRENCY, LOCAL_FUNCTION_ENVIRONMENTS)', () => {
    expect(environmentLimits(2, { perFunction: 3 })).toEqual({ perFunction: 3, total: 96 });
    // A function's limit above the derived total raises the total; a total set below it caps the function.
    expect(environmentLimits(2, { perFunction: 200 })).toEqual({ perFunction: 200, total: 200 });
    expect(environmentLimits(2, { perFunction: 8, total: 4 })).toEqual({ perFunction: 4, total: 4 });
  });

  it('hold a busy function to its share of the machine: the invocation beyond waits for a warm one', async () => {
    const { perFunction } = environmentLimits(availableParallelism());
    const gateway = await startGateway({ warmWaitMs: 0 });
    const held = await latch();
    try {
      const answers = Promise.all(Array.from({ length: perFunction + 1 }, () => gateway.get(`/hold?${held.query}`)));
      await expect.poll(held.held, { timeout: 30_000 }).toBe(perFunction);
      expect((await gateway.stats()).hold).toMatchObject({ environments: perFunction, queued: perFunction + 1 });
      held.release();
      // The one that waited ran in an environment that had already served one.
      await expect.poll(held.held, { timeout: 30_000 }).toBe(1);
      held.release();
      const invocations = (await answers).map((a) => a.body.invocations).sort();
      expect(invocations).toEqual([...Array(perFunction).fill(1), 2]);
      expect((await gateway.stats()).hold).toMatchObject({ environments: perFunction, throttled: 0 });
    } finally {
      await held.close();
      await gateway.close();
    }
  });
});

describe('at the total limit', () => {
  it("ends another function's least recently used idle environment to make room", async () => {
    const gateway = await startGateway({ environmentsPerFunction: 1, environmentsTotal: 2 });
    try {
      expect((await gateway.get('/first')).body).toMatchObject({ invocations: 1 });
      expect((await gateway.get('/second')).body).toMatchObject({ invocations: 1 });
      // Two live, both idle: `first`'s is the least recently used, and it goes.
      expect((await gateway.get('/wait')).body).toEqual({ invocations: 1 });
      let stats = await gateway.stats();
      expect(stats.first).toMatchObject({ live: 0, evicted: 1 });
      expect(stats.second).toMatchObject({ live: 1, evicted: 0 });
      expect(stats.wait).toMatchObject({ live: 1, environments: 1 });
      // `first` starts cold again (its module state new), in the room of `second`'s, now the oldest idle.
      expect((await gateway.get('/first')).body).toMatchObject({ invocations: 1 });
      stats = await gateway.stats();
      expect(stats.second).toMatchObject({ live: 0, evicted: 1 });
      expect(stats.first).toMatchObject({ live: 1, environments: 2 });
    } finally {
      await gateway.close();
    }
  });

  it("queues a function that has an environment for it, rather than ending another function's", async () => {
    // A new environment at once, were there room: there is none, and `first`'s idle one stays.
    const gateway = await startGateway({ environmentsPerFunction: 2, environmentsTotal: 2, warmWaitMs: 0 });
    const held = await latch();
    try {
      expect((await gateway.get('/first')).body).toMatchObject({ invocations: 1 });
      const holding = gateway.get(`/hold?${held.query}`);
      await expect.poll(held.held, { timeout: 30_000 }).toBe(1);
      const queued = gateway.get('/hold');
      await expect.poll(async () => (await gateway.stats()).hold?.queued, { timeout: 30_000 }).toBe(2);
      held.release();
      expect((await holding).body).toEqual({ invocations: 1 });
      expect((await queued).body).toEqual({ invocations: 2 });
      const stats = await gateway.stats();
      expect(stats.first).toMatchObject({ live: 1, evicted: 0 });
      expect(stats.hold).toMatchObject({ environments: 1 });
    } finally {
      await held.close();
      await gateway.close();
    }
  });

  it('makes a function wait while every environment is busy, and gives it the first to go idle', async () => {
    const gateway = await startGateway({ environmentsPerFunction: 1, environmentsTotal: 1 });
    const held = await latch();
    try {
      const holding = gateway.get(`/hold?${held.query}`);
      await expect.poll(held.held, { timeout: 30_000 }).toBe(1);
      const waiting = gateway.get('/first');
      await expect.poll(async () => (await gateway.stats()).first?.queued, { timeout: 30_000 }).toBe(1);
      expect((await gateway.stats()).first).toMatchObject({ environments: 0 });
      held.release();
      expect((await holding).body).toEqual({ invocations: 1 });
      expect((await waiting).body).toMatchObject({ invocations: 1 });
      expect((await gateway.stats()).hold).toMatchObject({ live: 0, evicted: 1 });
    } finally {
      await held.close();
      await gateway.close();
    }
  });
});

describe('an invocation that finds its function busy', () => {
  it('is served by the warm environment coming free rather than a new one', async () => {
    // Room for a second environment, but a cold start's wait far longer than the busy one takes.
    const gateway = await startGateway({ environmentsPerFunction: 2, warmWaitMs: 60_000 });
    const held = await latch();
    try {
      const holding = gateway.get(`/hold?${held.query}`);
      await expect.poll(held.held, { timeout: 30_000 }).toBe(1);
      const queued = gateway.get('/hold');
      await expect.poll(async () => (await gateway.stats()).hold?.queued, { timeout: 30_000 }).toBe(2);
      held.release();
      expect((await holding).body).toEqual({ invocations: 1 });
      expect((await queued).body).toEqual({ invocations: 2 });
      expect((await gateway.stats()).hold).toMatchObject({ environments: 1, invocations: 2 });
    } finally {
      await held.close();
      await gateway.close();
    }
  });

  it("gets a new environment once it has waited a cold start's time and none came free", async () => {
    const gateway = await startGateway({ environmentsPerFunction: 2, warmWaitMs: 50 });
    const held = await latch();
    try {
      const holding = gateway.get(`/hold?${held.query}`);
      await expect.poll(held.held, { timeout: 30_000 }).toBe(1);
      // The first is held as long as the test likes: the second runs in an environment of its own.
      expect((await gateway.get('/hold')).body).toEqual({ invocations: 1 });
      held.release();
      expect((await holding).body).toEqual({ invocations: 1 });
      expect((await gateway.stats()).hold).toMatchObject({ environments: 2 });
    } finally {
      await held.close();
      await gateway.close();
    }
  });

  it('is not refused while the queue moves: a burst behind warm runs outlasts the admission window', async () => {
    // One environment, 40 invocations of 25 ms each: over a second in all, where the window is 500 ms.
    const gateway = await startGateway({ environmentsPerFunction: 1, integrationTimeoutMs: 500, timeoutMs: () => 10_000 });
    try {
      expect((await gateway.get('/wait')).status).toBe(200);
      const burst = await Promise.all(Array.from({ length: 40 }, () => gateway.get('/wait?ms=25')));
      expect(burst.map((a) => a.status)).toEqual(Array(40).fill(200));
      expect((await gateway.stats()).wait).toMatchObject({ environments: 1, throttled: 0, invocations: 41 });
      expect((await gateway.stats()).wait?.waitMs).toBeGreaterThan(500);
    } finally {
      await gateway.close();
    }
  });
});

describe('warming every function after start (npm start)', () => {
  it('starts one environment of each function ahead of its first request, which then starts none', async () => {
    const gateway = await startGateway();
    try {
      // The fixtures' five routes, the not-found answer: six functions.
      expect(await gateway.warm()).toBe(6);
      const warmed = await gateway.stats();
      expect(Object.values(warmed).map((s) => [s.environments, s.live, s.invocations])).toEqual(
        Array.from({ length: 6 }, () => [1, 1, 0]),
      );
      expect((await gateway.get('/first')).status).toBe(200);
      expect((await gateway.get('/second')).status).toBe(200);
      const after = await gateway.stats();
      expect([after.first?.environments, after.second?.environments]).toEqual([1, 1]);
      expect([after.first?.invocations, after.second?.invocations]).toEqual([1, 1]);
      // Warm already: a second warm-up starts nothing.
      expect(await gateway.warm()).toBe(0);
    } finally {
      await gateway.close();
    }
  });

  it("ends no other function's environment for it: at the total it stops", async () => {
    const gateway = await startGateway({ environmentsPerFunction: 1, environmentsTotal: 2 });
    try {
      expect(await gateway.warm()).toBe(2);
      const stats = Object.values(await gateway.stats());
      expect(stats.reduce((n, s) => n + s.live, 0)).toBe(2);
      expect(stats.reduce((n, s) => n + s.evicted, 0)).toBe(0);
    } finally {
      await gateway.close();
    }
  });
});
