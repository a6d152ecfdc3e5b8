import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import type { FunctionBundles } from './function-bundles';
import type { FromRuntime, RuntimeData, SerializedError, ToRuntime } from './function-runtime';
import { FunctionTimeout } from './function-scope';
import type { Logger } from './log';

/**
 * Lambda's execution environments, locally (README: Local stack): each function runs in environments
 * of its own — a worker thread that loads only that function's bundle, with only its route's
 * environment variables — created on first use (a cold start, timed and logged) and kept warm for the
 * next invocation. An environment takes one invocation at a time; concurrent invocations of a busy
 * function get further environments, up to `maxPerFunction`, then wait for one to come free. A
 * timeout ends the environment (Lambda discards it: the next invocation starts cold), and so does a
 * crash. Worker threads, not child processes: loading the same bundle took a median of 0.86 s in a
 * thread and 2.1 s in a child process on this machine (README: Local stack), and an answer needs no JSON.
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
  /** Invocations that had to wait for an environment, and those that waited past `admissionMs`. */
  queued: number;
  throttled: number;
  timeouts: number;
  /** The most environments busy at once. */
  peakConcurrency: number;
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

/** A function that failed to initialise (its module threw, or took longer than Lambda's 10 s init). */
export class FunctionInitError extends Error {}

interface Environment {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
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
  environments: Set<Environment>;
  idle: Environment[];
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
        },
      };
      pools.set(spec.name, pool);
    }
    return pool;
  }

  function create(pool: Pool, initTimeoutMs: number): Environment {
    const { spec } = pool;
    const worker = new Worker(new URL(options.bundles.runtime), {
      name: spec.name,
      env: spec.environment,
      workerData: { bundle: options.bundles.bundleOf(spec.name), functionName: spec.name } satisfies RuntimeData,
      stdout: true,
      stderr: true,
    });
    worker.unref();
    createInterface({ input: worker.stdout }).on('line', (line) => options.functionLog.info(line));
    createInterface({ input: worker.stderr }).on('line', (line) => options.functionLog.error(line));
    const environment: Environment = { worker, busy: true, idleSince: Date.now(), ready: Promise.resolve() };
    pool.environments.add(environment);
    pool.stats.environments += 1;
    pool.stats.live = pool.environments.size;
    const started = performance.now();
    environment.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new FunctionInitError(`${spec.name}: initialisation timed out after ${initTimeoutMs} ms`));
        discard(pool, environment);
      }, initTimeoutMs);
      const onMessage = (message: FromRuntime) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          pool.stats.initMs.push(Math.round(message.initMs));
          log.info(
            `${spec.name}: cold start ${Math.round(performance.now() - started)} ms (init ${Math.round(message.initMs)} ms; environment ${pool.stats.environments})`,
          );
          resolve();
        } else if (message.type === 'log') {
          options.functionLog[message.level](message.line);
        } else if (message.type === 'init-error') {
          clearTimeout(timer);
          reject(new FunctionInitError(`${spec.name} failed to initialise: ${message.error.stack ?? message.error.message}`));
        } else if (message.type === 'result' && environment.current?.id === message.id) {
          environment.current.resolve(message.result);
        } else if (message.type === 'error' && environment.current?.id === message.id) {
          environment.current.reject(revive(message.error));
        }
      };
      worker.on('message', onMessage);
      const onEnd = (error: Error) => {
        clearTimeout(timer);
        reject(error);
        // A crash ends the invocation it was running and the environment with it.
        environment.current?.reject(error);
        forget(pool, environment);
      };
      worker.on('error', onEnd);
      worker.on('exit', (code) => onEnd(new Error(`${spec.name}: its environment exited (code ${code})`)));
    });
    // Handled by whoever waits on it; a rejection nobody waits on is not an unhandled one.
    environment.ready.catch(() => {});
    return environment;
  }

  /** An environment for one invocation: an idle one, a new one, or the next to come free. */
  function acquire(pool: Pool, invoke: InvokeOptions): Promise<Environment> {
    const idle = pool.idle.pop();
    if (idle) {
      idle.busy = true;
      return Promise.resolve(idle);
    }
    if (pool.environments.size < options.maxPerFunction) return Promise.resolve(create(pool, invoke.initTimeoutMs));
    pool.stats.queued += 1;
    const started = performance.now();
    return new Promise<Environment>((resolve, reject) => {
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
      // No bound (a queue's consumer) is no timer: Node would take an infinite delay as 1 ms.
      const timer = Number.isFinite(invoke.admissionMs)
        ? setTimeout(() => {
            pool.waiters.splice(pool.waiters.indexOf(waiter), 1);
            pool.stats.throttled += 1;
            reject(new FunctionThrottled(pool.spec.name, performance.now() - started));
          }, invoke.admissionMs)
        : undefined;
      pool.waiters.push(waiter);
    });
  }

  /** Hands a free environment to the next waiter, or keeps it warm. */
  function release(pool: Pool, environment: Environment) {
    environment.current = undefined;
    if (!pool.environments.has(environment)) return;
    const waiter = pool.waiters.shift();
    if (waiter) return waiter.give(environment);
    environment.busy = false;
    environment.idleSince = Date.now();
    pool.idle.push(environment);
  }

  function forget(pool: Pool, environment: Environment) {
    if (!pool.environments.delete(environment)) return;
    pool.idle = pool.idle.filter((e) => e !== environment);
    pool.stats.live = pool.environments.size;
    // Room for another: the next waiter gets a new environment.
    const waiter = pool.waiters.shift();
    if (waiter && !closed) waiter.give(create(pool, pool.initTimeoutMs));
  }

  function discard(pool: Pool, environment: Environment) {
    forget(pool, environment);
    environment.worker.terminate().catch(() => {});
  }

  async function invoke(spec: LocalFunctionSpec, event: unknown, invokeOptions: InvokeOptions): Promise<unknown> {
    if (closed) throw new Error('The gateway is closing');
    const pool = poolOf(spec, invokeOptions.initTimeoutMs);
    pool.stats.invocations += 1;
    const environment = await acquire(pool, invokeOptions);
    try {
      await environment.ready;
    } catch (error) {
      discard(pool, environment);
      throw error;
    }
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
          timeoutMs,
          deadline: Date.now() + timeoutMs,
        } satisfies ToRuntime);
      });
    } finally {
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
      }
      await Promise.allSettled(workers.map((w) => w.terminate()));
    },
  };
}

function revive(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
