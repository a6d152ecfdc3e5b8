import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { clockOffsetMs } from './clock';
import type { FunctionBundles } from './function-bundles';
import type { FromRuntime, RuntimeData, SerializedError, ToRuntime } from './function-runtime';
import { FunctionTimeout } from './function-scope';
import type { Logger } from './log';

/**
 * Lambda's execution environments, locally (README: Architecture): each function runs in environments
 * of its own — a worker thread that loads only that function's bundle, with only its route's
 * environment variables — created on first use (a cold start, timed and logged) and kept warm for the
 * next invocation. An environment takes one invocation at a time; concurrent invocations of a busy
 * function get further environments, up to `maxPerFunction`, and take whichever of their function's
 * comes free first. A timeout ends the environment (Lambda discards it: the next invocation starts
 * cold), and so does a crash. Worker threads, not child processes: loading the same bundle took a
 * median of 0.86 s in a thread and 2.1 s in a child process on this machine, and an answer needs no JSON.
 */
export interface LocalFunctionSpec {
  /** The handler, e.g. `conversations/list`. */
  name: string;
  environment: Record<string, string>;
}

export interface FunctionStats {
  /** Environments created (each a cold start) and those alive now. */
  environments: number;
  live: number;
  /** Each cold start's initialisation (loading the bundle), in ms. */
  initMs: number[];
  invocations: number;
  /**
   * Invocations that found no warm environment free (they waited for a new one or for the next to come
   * free), and those still waiting after `admissionMs`.
   */
  queued: number;
  throttled: number;
  timeouts: number;
  /** The most environments busy at once. */
  peakConcurrency: number;
  /** Time invocations spent waiting for an environment, and running in one, in ms (sums). */
  waitMs: number;
  runMs: number;
}

/** An invocation that found every environment of its function busy for `admissionMs`. */
export class FunctionThrottled extends Error {
  constructor(
    readonly functionName: string,
    readonly waitedMs: number,
  ) {
    super(`Rate Exceeded: no environment of ${functionName} came free in ${Math.round(waitedMs)} ms`);
  }
}

/** A function that failed to initialise (its module threw, or outlasted its init limit). */
export class FunctionInitError extends Error {}

interface Environment {
  worker: Worker;
  idleSince: number;
  /** The invocation it is running, if any. */
  current?: { id: number; resolve: (value: unknown) => void; reject: (error: Error) => void };
}

interface Waiter {
  give: (environment: Environment) => void;
  fail: (error: Error) => void;
}

interface Pool {
  spec: LocalFunctionSpec;
  /** Environments ready, busy or idle. */
  environments: Set<Environment>;
  idle: Environment[];
  /** Environments being created (waiting for a start slot, or initialising). */
  starting: Set<Worker | symbol>;
  waiters: Waiter[];
  stats: FunctionStats;
  initTimeoutMs: number;
}

export interface InvokeOptions {
  timeoutMs: number;
  /** Lambda's limit for a cold start's initialisation. */
  initTimeoutMs: number;
  /** How long an invocation may wait for an environment before it is refused (FunctionThrottled). */
  admissionMs: number;
}

export function createFunctionEnvironments(options: {
  bundles: FunctionBundles;
  maxPerFunction: number;
  /** Cold starts at once, across every function (default: one per core). */
  concurrentStarts?: number;
  /** An environment idle this long is ended, as Lambda reclaims idle ones (next use: a cold start). */
  idleMs?: number;
  log: Logger;
  /** Where what the functions write to the console goes, line by line (in Lambda: CloudWatch Logs). */
  functionLog: Logger;
}) {
  const { log } = options;
  const pools = new Map<string, Pool>();
  let nextId = 1;
  let closed = false;
  /**
   * Loading a bundle is CPU work: more cold starts at once than there are cores only makes each one
   * slower, and under a burst every one would miss its turn. The rest wait for a slot; an invocation
   * waiting for a new environment takes any of its function's that comes free first.
   */
  const starts = slots(options.concurrentStarts ?? availableParallelism());

  const idleMs = options.idleMs ?? 10 * 60 * 1000;
  const reaper = setInterval(
    () => {
      const now = Date.now();
      for (const pool of pools.values()) {
        for (const environment of [...pool.idle]) {
          if (now - environment.idleSince >= idleMs) discard(pool, environment);
        }
      }
    },
    Math.min(idleMs, 60_000),
  );
  reaper.unref();

  function poolOf(spec: LocalFunctionSpec, initTimeoutMs: number): Pool {
    let pool = pools.get(spec.name);
    if (!pool) {
      pool = {
        spec,
        initTimeoutMs,
        environments: new Set(),
        idle: [],
        starting: new Set(),
        waiters: [],
        stats: {
          environments: 0,
          live: 0,
          initMs: [],
          invocations: 0,
          queued: 0,
          throttled: 0,
          timeouts: 0,
          peakConcurrency: 0,
          waitMs: 0,
          runMs: 0,
        },
      };
      pools.set(spec.name, pool);
    }
    return pool;
  }

  /** Starts as many environments as the waiting invocations need, within the function's limit. */
  function scale(pool: Pool) {
    while (
      !closed &&
      pool.waiters.length > pool.starting.size &&
      pool.environments.size + pool.starting.size < options.maxPerFunction
    ) {
      start(pool);
    }
  }

  /** A cold start: a worker that loads the function's bundle, then takes the next waiting invocation. */
  function start(pool: Pool) {
    const { spec } = pool;
    // One per start still waiting for its slot (each its own: a Set would count equal ones once).
    const placeholder = Symbol(spec.name);
    pool.starting.add(placeholder);
    pool.stats.environments += 1;
    const number = pool.stats.environments;
    const queuedAt = performance.now();
    starts.acquire().then(() => {
      pool.starting.delete(placeholder);
      if (closed) return starts.release();
      const worker = new Worker(new URL(options.bundles.runtime), {
        name: spec.name,
        env: spec.environment,
        workerData: { bundle: options.bundles.bundleOf(spec.name), functionName: spec.name } satisfies RuntimeData,
        stdout: true,
        stderr: true,
      });
      worker.unref();
      pool.starting.add(worker);
      createInterface({ input: worker.stdout }).on('line', (line) => options.functionLog.info(line));
      createInterface({ input: worker.stderr }).on('line', (line) => options.functionLog.error(line));
      const environment: Environment = { worker, idleSince: Date.now() };
      const started = performance.now();
      let initialising = true;
      const initialised = (error?: Error) => {
        if (!initialising) return;
        initialising = false;
        clearTimeout(timer);
        starts.release();
        pool.starting.delete(worker);
        if (error) {
          worker.terminate().catch(() => {});
          log.error(error.message);
          // Lambda answers the invocation that met a failed init with that error (Runtime.InitError).
          pool.waiters.shift()?.fail(error);
          scale(pool);
          return;
        }
        pool.environments.add(environment);
        pool.stats.live = pool.environments.size;
        release(pool, environment);
      };
      // Lambda's 10 s init limit, and then the invocation's own timeout: an init that overruns is done
      // again within the first invocation ("suppressed init"), which gets the function's timeout.
      const timer = setTimeout(
        () => initialised(new FunctionInitError(`${spec.name}: initialisation timed out after ${pool.initTimeoutMs} ms`)),
        pool.initTimeoutMs,
      );
      worker.on('message', (message: FromRuntime) => {
        if (message.type === 'ready') {
          pool.stats.initMs.push(Math.round(message.initMs));
          log.info(
            `${spec.name}: cold start ${Math.round(performance.now() - queuedAt)} ms (init ${Math.round(message.initMs)} ms after ${Math.round(started - queuedAt)} ms for a start slot; environment ${number})`,
          );
          initialised();
        } else if (message.type === 'log') {
          options.functionLog[message.level](message.line);
        } else if (message.type === 'init-error') {
          initialised(
            new FunctionInitError(`${spec.name} failed to initialise: ${message.error.stack ?? message.error.message}`),
          );
        } else if (message.type === 'result' && environment.current?.id === message.id) {
          environment.current.resolve(message.result);
        } else if (message.type === 'error' && environment.current?.id === message.id) {
          environment.current.reject(revive(message.error));
        }
      });
      const ended = (error: Error) => {
        initialised(error);
        // A crash ends the invocation it was running and the environment with it.
        environment.current?.reject(error);
        forget(pool, environment);
      };
      worker.on('error', ended);
      worker.on('exit', (code) => ended(new Error(`${spec.name}: its environment exited (code ${code})`)));
    });
  }

  /** An environment for one invocation: an idle one, else the first of its function's to come free or start. */
  function acquire(pool: Pool, invoke: InvokeOptions): Promise<Environment> {
    const idle = pool.idle.pop();
    if (idle) return Promise.resolve(idle);
    pool.stats.queued += 1;
    const started = performance.now();
    const waiting = new Promise<Environment>((resolve, reject) => {
      const waiter: Waiter = {
        give: (environment) => {
          clearTimeout(timer);
          resolve(environment);
        },
        fail: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      pool.waiters.push(waiter);
      // A new environment starting for it: it waits for its cold start. None (the function is at its
      // limit): concurrency is exhausted, and it waits only as long as `admissionMs` (none for a
      // queue's consumer, and no timer then: Node would take an infinite delay as 1 ms).
      scale(pool);
      const timer =
        pool.waiters.length > pool.starting.size && Number.isFinite(invoke.admissionMs)
          ? setTimeout(() => {
              pool.waiters.splice(pool.waiters.indexOf(waiter), 1);
              pool.stats.throttled += 1;
              reject(new FunctionThrottled(pool.spec.name, performance.now() - started));
            }, invoke.admissionMs)
          : undefined;
    });
    return waiting;
  }

  /** Hands a free environment to the next waiting invocation, or keeps it warm. */
  function release(pool: Pool, environment: Environment) {
    environment.current = undefined;
    if (!pool.environments.has(environment)) return;
    const waiter = pool.waiters.shift();
    if (waiter) return waiter.give(environment);
    environment.idleSince = Date.now();
    pool.idle.push(environment);
  }

  function forget(pool: Pool, environment: Environment) {
    if (!pool.environments.delete(environment)) return;
    pool.idle = pool.idle.filter((e) => e !== environment);
    pool.stats.live = pool.environments.size;
    // Room for another, if invocations are waiting.
    scale(pool);
  }

  function discard(pool: Pool, environment: Environment) {
    forget(pool, environment);
    environment.worker.terminate().catch(() => {});
  }

  async function invoke(spec: LocalFunctionSpec, event: unknown, invokeOptions: InvokeOptions): Promise<unknown> {
    if (closed) throw new Error('The gateway is closing');
    const pool = poolOf(spec, invokeOptions.initTimeoutMs);
    pool.stats.invocations += 1;
    const arrived = performance.now();
    const environment = await acquire(pool, invokeOptions);
    const running = performance.now();
    pool.stats.waitMs += running - arrived;
    const busy = pool.environments.size - pool.idle.length;
    pool.stats.peakConcurrency = Math.max(pool.stats.peakConcurrency, busy);
    const id = nextId++;
    const { timeoutMs } = invokeOptions;
    try {
      return await new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => {
          pool.stats.timeouts += 1;
          reject(new FunctionTimeout(timeoutMs));
          // Lambda stops the function at its timeout and starts the next invocation in a fresh environment.
          discard(pool, environment);
        }, timeoutMs);
        environment.current = {
          id,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        environment.worker.postMessage({
          type: 'invoke',
          id,
          event,
          deadline: Date.now() + timeoutMs,
          clockOffsetMs: clockOffsetMs(),
        } satisfies ToRuntime);
      });
    } finally {
      pool.stats.runMs += performance.now() - running;
      release(pool, environment);
    }
  }

  return {
    invoke,
    /** Per function: environments, cold starts, invocations, waits and timeouts since start. */
    stats: (): Record<string, FunctionStats> =>
      Object.fromEntries([...pools].map(([name, pool]) => [name, { ...pool.stats, initMs: [...pool.stats.initMs] }])),
    close: async () => {
      closed = true;
      clearInterval(reaper);
      const workers: Worker[] = [];
      for (const pool of pools.values()) {
        for (const waiter of pool.waiters.splice(0)) waiter.fail(new Error('The gateway is closing'));
        for (const environment of pool.environments) workers.push(environment.worker);
        for (const starting of pool.starting) if (typeof starting !== 'symbol') workers.push(starting);
      }
      await Promise.allSettled(workers.map((w) => w.terminate()));
    },
  };
}

/** At most `size` holders at once; the others wait in order. */
function slots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    acquire: (): Promise<void> => {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release: () => {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
}

function revive(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
