import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { clockOffsetMs } from './clock';
import type { FunctionBundles } from './function-bundles';
import type { FromRuntime, RuntimeData, SerializedError, ToRuntime } from './function-runtime';
import { FunctionTimeout } from './function-scope';
import type { Logger } from './log';

/**
 * Lambda's execution environments, locally (docs/local-stack.md: Functions in execution environments of their
 * own; docs/architecture.md §1): each function runs in environments of its own — a worker thread that loads
 * only that function's bundle, with only its route's environment variables — created on first use (a cold
 * start, timed and logged) and kept warm for the next invocation. An environment takes one invocation at a
 * time. A timeout ends the environment (Lambda discards it: the next invocation starts cold), and so does a
 * crash. Worker threads, not child processes: loading the same bundle took a median of 0.86 s in a thread and
 * 2.1 s in a child process on this machine, and an answer needs no JSON.
 *
 * Sized for this machine, not for Lambda (environmentLimits): Lambda gives each environment CPU of its
 * own; here every environment shares the machine's cores with the gateway, DynamoDB Local and the
 * emulators, so an environment more is a cold start's CPU taken from everything else, not capacity.
 * - A function has at most one environment per core (at least two, so one slow invocation does not
 *   hold up the next), and all functions together at most ENVIRONMENTS_PER_CORE per core. At that
 *   total a function with no environment ends the least recently used idle environment of another
 *   function (with none idle it waits for one, as Lambda's account concurrency bounds all functions
 *   together); one with environments waits for its own.
 * - An invocation that finds its function's environments busy waits for one to come free for as long
 *   as that function's cold starts take (their median; `warmWaitMs`) before a new one starts: a warm
 *   environment of a 20 ms function comes free long before a new one would have loaded.
 * - An HTTP request is refused (FunctionThrottled, API Gateway's 503) only when no environment of its
 *   function came free, or was starting, for `admissionMs`: a queue that moves is never throttled.
 * Measured on this machine (2 cores, others' test runs beside it; bench/environment-cost.ts): an
 * environment takes about 0.19 CPU-seconds to start (its thread and its bundle; 80–400 ms of wall time,
 * median 155 ms) and adds about 25 MB of resident memory, its own V8 heap 15 MB used of 20 MB.
 */
export interface LocalFunctionSpec {
  /** The handler, e.g. `conversations/list`. */
  name: string;
  environment: Record<string, string>;
}

/** Live environments at most, all functions together, per core of the machine (environmentLimits). */
export const ENVIRONMENTS_PER_CORE = 48;

export interface EnvironmentLimits {
  /** One function's environments at most (LOCAL_FUNCTION_CONCURRENCY). */
  perFunction: number;
  /** Live environments at most, all functions together (LOCAL_FUNCTION_ENVIRONMENTS). */
  total: number;
}

/**
 * The limits for a machine of `cores`: one environment per core for a function (at least two), and
 * ENVIRONMENTS_PER_CORE per core in all: more than the route table's functions, so a test run that
 * uses most of them keeps them warm (with 8 per core, the integration stack ended and started again
 * idle environments 978 times in a run instead of 365); idle ones cost memory (~25 MB each), not CPU.
 * Given limits win; a per-function limit above the derived total raises the total with it.
 */
export function environmentLimits(
  cores: number = availableParallelism(),
  given: Partial<EnvironmentLimits> = {},
): EnvironmentLimits {
  const perFunction = given.perFunction ?? Math.max(2, cores);
  const total = given.total ?? Math.max(ENVIRONMENTS_PER_CORE * cores, perFunction);
  return { perFunction: Math.min(perFunction, total), total };
}

export interface FunctionStats {
  /** Environments created (each a cold start) and those alive now. */
  environments: number;
  live: number;
  /** Each cold start's initialisation (loading the bundle), in ms. */
  initMs: number[];
  invocations: number;
  /**
   * Invocations that found no warm environment free (they waited for one to come free or for a new
   * one), and those refused after `admissionMs` without any environment of their function coming free.
   */
  queued: number;
  throttled: number;
  timeouts: number;
  /** Its idle environments ended to make room for another function's at the total limit. */
  evicted: number;
  /** The most environments busy at once. */
  peakConcurrency: number;
  /** Time invocations spent waiting for an environment, and running in one, in ms (sums). */
  waitMs: number;
  runMs: number;
}

/** An invocation that found every environment of its function busy, none coming free for `admissionMs`. */
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
  /** It waited a cold start's time for a warm environment, or there was none to wait for: it wants a new one. */
  wantsNew: boolean;
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
  /** The latest cold starts, from the start's request until ready, in ms: how long a warm one is worth waiting for. */
  coldStartMs: number[];
  /** When an environment of the function last came free or became ready (performance.now()). */
  freedAt: number;
}

export interface InvokeOptions {
  timeoutMs: number;
  /** Lambda's limit for a cold start's initialisation. */
  initTimeoutMs: number;
  /** How long an invocation may wait with no environment of its function coming free before it is refused (FunctionThrottled). */
  admissionMs: number;
}

/** The cold starts a function's wait for a warm environment is measured against. */
const COLD_STARTS_KEPT = 9;
/** How long to wait for a warm environment before any cold start was measured (about one, on this machine). */
const FIRST_WARM_WAIT_MS = 500;

export function createFunctionEnvironments(options: {
  bundles: FunctionBundles;
  /** Given limits; the rest derived from the machine's cores (environmentLimits). */
  limits?: Partial<EnvironmentLimits>;
  /** Cold starts at once, across every function (default: one per core). */
  concurrentStarts?: number;
  /** An environment idle this long is ended, as Lambda reclaims idle ones (next use: a cold start). */
  idleMs?: number;
  /**
   * How long an invocation waits for a busy environment of its function to come free before a new one
   * starts (default: the median of the function's cold starts; 0 starts one at once, as Lambda does).
   */
  warmWaitMs?: number;
  log: Logger;
  /** Where what the functions write to the console goes, line by line (in Lambda: CloudWatch Logs). */
  functionLog: Logger;
}) {
  const { log } = options;
  const limits = environmentLimits(availableParallelism(), options.limits);
  const pools = new Map<string, Pool>();
  /** Functions waiting for room in the total (none idle to end), in the order they asked. */
  const roomWanted: Pool[] = [];
  let nextId = 1;
  let closed = false;
  /**
   * Loading a bundle is CPU work: more cold starts at once than there are cores only makes each one
   * slower, and under a burst every one would miss its turn. The rest wait for a slot.
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
        coldStartMs: [],
        freedAt: 0,
        stats: {
          environments: 0,
          live: 0,
          initMs: [],
          invocations: 0,
          queued: 0,
          throttled: 0,
          timeouts: 0,
          evicted: 0,
          peakConcurrency: 0,
          waitMs: 0,
          runMs: 0,
        },
      };
      pools.set(spec.name, pool);
    }
    return pool;
  }

  const liveInAll = () => {
    let live = 0;
    for (const pool of pools.values()) live += pool.environments.size + pool.starting.size;
    return live;
  };

  const wantingNew = (pool: Pool) => pool.waiters.reduce((n, w) => n + (w.wantsNew ? 1 : 0), 0);

  /** How long an invocation waits for a warm environment of this function before a new one starts. */
  function warmWaitMs(pool: Pool): number {
    if (options.warmWaitMs !== undefined) return options.warmWaitMs;
    const measured = pool.coldStartMs.length ? pool.coldStartMs : [...pools.values()].flatMap((p) => p.coldStartMs);
    return measured.length ? median(measured) : FIRST_WARM_WAIT_MS;
  }

  /** Starts as many environments as the invocations that want a new one need, within both limits. */
  function scale(pool: Pool) {
    // Nothing of its function to wait for (its environments ended, or a start failed): a new one, now.
    const head = pool.waiters[0];
    if (head && pool.environments.size + pool.starting.size === 0) head.wantsNew = true;
    while (!closed && wantingNew(pool) > pool.starting.size && pool.environments.size + pool.starting.size < limits.perFunction) {
      if (!makeRoomFor(pool)) {
        if (!roomWanted.includes(pool)) roomWanted.push(pool);
        return;
      }
      start(pool);
    }
  }

  /**
   * Room in the total for one more environment of `pool`: free, or, for a function with none, made by
   * ending the least recently used idle environment of another function. A function that has one
   * waits for it instead: a warm queue beats a cold start here and the one the other function's
   * next invocation would have (with 4 a function, the soak ended 79 so in a minute).
   */
  function makeRoomFor(pool: Pool): boolean {
    if (liveInAll() < limits.total) return true;
    if (pool.environments.size + pool.starting.size > 0) return false;
    let oldest: { pool: Pool; environment: Environment } | undefined;
    for (const other of pools.values()) {
      if (other === pool) continue;
      for (const environment of other.idle) {
        if (!oldest || environment.idleSince < oldest.environment.idleSince) oldest = { pool: other, environment };
      }
    }
    if (!oldest) return false;
    oldest.pool.stats.evicted += 1;
    log.info(
      `${oldest.pool.spec.name}: idle environment ended to make room for ${pool.spec.name} (${limits.total} environments in all)`,
    );
    end(oldest.pool, oldest.environment);
    oldest.environment.worker.terminate().catch(() => {});
    return true;
  }

  /** Room came free in the total (an environment ended or went idle): the functions waiting for it, in order. */
  function roomFreed() {
    for (const pool of roomWanted.splice(0)) scale(pool);
  }

  /** A cold start: a worker that loads the function's bundle, then takes the next waiting invocation. */
  function start(pool: Pool) {
    const { spec } = pool;
    // One per start still waiting for its slot (each its own: a Set would count equal ones once).
    const placeholder = Symbol(spec.name);
    pool.starting.add(placeholder);
    const queuedAt = performance.now();
    starts.acquire().then(() => {
      pool.starting.delete(placeholder);
      // A warm environment served the invocations that wanted this one while it waited for its slot.
      if (closed || wantingNew(pool) <= pool.starting.size) {
        starts.release();
        roomFreed();
        return;
      }
      pool.stats.environments += 1;
      const number = pool.stats.environments;
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
          // Closing ends the environments still starting: no failure to report.
          if (!closed) log.error(error.message);
          // Lambda answers the invocation that met a failed init with that error (Runtime.InitError).
          pool.waiters.shift()?.fail(error);
          scale(pool);
          roomFreed();
          return;
        }
        pool.coldStartMs = [...pool.coldStartMs, performance.now() - queuedAt].slice(-COLD_STARTS_KEPT);
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

  /**
   * An environment for one invocation: an idle one, else the first of its function's to come free. A
   * new one starts for it at once only if its function has none, else once it has waited a cold
   * start's time (`warmWaitMs`).
   */
  function acquire(pool: Pool, invoke: InvokeOptions): Promise<Environment> {
    const idle = pool.idle.pop();
    if (idle) return Promise.resolve(idle);
    pool.stats.queued += 1;
    const arrived = performance.now();
    return new Promise<Environment>((resolve, reject) => {
      let patience: NodeJS.Timeout | undefined;
      let admission: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(patience);
        clearTimeout(admission);
      };
      const waiter: Waiter = {
        wantsNew: false,
        give: (environment) => {
          done();
          resolve(environment);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      pool.waiters.push(waiter);
      const waitForWarm = () => {
        // While its function's first environments are still starting, the one to wait for is coming
        // (unless told not to wait at all: then each waiting invocation starts one, as in Lambda).
        if (pool.environments.size === 0 && pool.starting.size > 0 && warmWaitMs(pool) > 0) {
          patience = setTimeout(waitForWarm, warmWaitMs(pool));
          return;
        }
        waiter.wantsNew = true;
        scale(pool);
      };
      const wait = warmWaitMs(pool);
      if (pool.environments.size + pool.starting.size === 0 || wait <= 0) waitForWarm();
      else patience = setTimeout(waitForWarm, wait);
      // API Gateway's integration timeout, for requests (queue consumers and schedules wait as long as
      // they must: no timer then, Node would take an infinite delay as 1 ms). It counts from the last
      // time an environment of the function came free: a burst queued behind warm runs moves, and is
      // not refused; only a function whose environments are all held, none starting, is.
      if (Number.isFinite(invoke.admissionMs)) {
        const check = () => {
          const stalledMs = performance.now() - Math.max(arrived, pool.freedAt);
          if (stalledMs < invoke.admissionMs || pool.starting.size > 0) {
            admission = setTimeout(check, Math.max(1, invoke.admissionMs - stalledMs));
            return;
          }
          pool.waiters.splice(pool.waiters.indexOf(waiter), 1);
          pool.stats.throttled += 1;
          done();
          reject(new FunctionThrottled(pool.spec.name, stalledMs));
        };
        admission = setTimeout(check, invoke.admissionMs);
      }
    });
  }

  /** Hands a free environment to the next waiting invocation, or keeps it warm (or ends it for a function waiting for room). */
  function release(pool: Pool, environment: Environment) {
    environment.current = undefined;
    if (!pool.environments.has(environment)) return;
    pool.freedAt = performance.now();
    const waiter = pool.waiters.shift();
    if (waiter) return waiter.give(environment);
    environment.idleSince = Date.now();
    pool.idle.push(environment);
    if (roomWanted.length) roomFreed();
  }

  /** Takes an environment out of its function's; answers whether it was there. */
  function end(pool: Pool, environment: Environment): boolean {
    if (!pool.environments.delete(environment)) return false;
    pool.idle = pool.idle.filter((e) => e !== environment);
    pool.stats.live = pool.environments.size;
    return true;
  }

  function forget(pool: Pool, environment: Environment) {
    if (!end(pool, environment)) return;
    // Room for another, if invocations are waiting, of this function or another.
    scale(pool);
    roomFreed();
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

  /**
   * One environment for a function that has none, started without an invocation and kept warm for the
   * first one, as provisioned concurrency has it ready (docs/local-stack.md: Warm functions). Nothing
   * is ended to make room: with the total reached, or the function already warm or starting, it is
   * left as it is. Answers whether an environment was started.
   */
  function prewarm(spec: LocalFunctionSpec, initTimeoutMs: number): Promise<boolean> {
    const pool = poolOf(spec, initTimeoutMs);
    if (closed || pool.environments.size + pool.starting.size > 0 || liveInAll() >= limits.total) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      pool.waiters.push({
        wantsNew: true,
        // Ready: idle at once, for the invocations waiting behind it or the next to come.
        give: (environment) => {
          release(pool, environment);
          resolve(true);
        },
        fail: () => resolve(false),
      });
      scale(pool);
    });
  }

  return {
    invoke,
    prewarm,
    /** The limits in force: given, or derived from the machine's cores. */
    limits,
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
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
