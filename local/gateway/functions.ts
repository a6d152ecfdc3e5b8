import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { DEFAULT_TIMEOUT_SECONDS, environmentFor } from '../../functions/lib/capabilities';
import type { RouteEntry } from '../../functions/routes';
import { handlerEntry } from '../../infra/bundling';
import { cachedFunctionBundles, type FunctionBundling } from '../function-bundles';
import { createFunctionEnvironments, type LocalFunctionSpec } from '../function-environments';
import { invoke } from '../function-scope';
import { lambdaContext } from '../lambda-context';
import type { Logger } from '../log';
import { functionAccessKeyId, guardFunctionsTable } from '../table-guard';

/** Lambda's limit for a cold start's initialisation (module loading). */
const INIT_TIMEOUT_MS = 10_000;
/**
 * API Gateway's integration timeout: an HTTP API answers 503 Service Unavailable when its integration
 * has not answered in 30 s. Locally that is also how long a request waits with every environment of its
 * function busy and none coming free (local/function-environments.ts) before it gets that answer.
 */
const INTEGRATION_TIMEOUT_MS = 30_000;

const HANDLERS_DIR = join(import.meta.dirname, '..', '..', 'functions', 'handlers');

export type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

/** How the gateway runs the routes' functions (part of GatewayOptions). */
export interface FunctionOptions {
  log: Logger;
  /** What functions in environments of their own write to the console (default: this process's console). */
  functionLog?: Logger;
  /** Every variable the local handlers may get; each function sees only what its capabilities allow. */
  environment: Record<string, string>;
  /** How long a route may run, in ms: its `timeoutSeconds` unless a test shortens it. */
  timeoutMs?: (route: { timeoutSeconds?: number }) => number;
  handlers?: Readonly<Record<string, LambdaHandler>>;
  /**
   * How functions run: `environments` (the default), each in execution environments of its own as
   * Lambda runs them (local/function-environments.ts); `in-process`, all in this process, each
   * invocation scoped to its function's environment (local/function-scope.ts) — for a debugger, and
   * for tests that stop this process's clock. Handlers given as `handlers` always run in-process.
   */
  functions?: 'environments' | 'in-process';
  /** API Gateway's integration timeout (30 s unless a test shortens it). */
  integrationTimeoutMs?: number;
  /** Environments per function, and live environments in all, at most (default: from the cores; environmentLimits). */
  environmentsPerFunction?: number;
  environmentsTotal?: number;
  /** How long an invocation waits for a busy environment of its function before a new one starts (default: a cold start's time). */
  warmWaitMs?: number;
  /** The environments' code: `local` bundles (the default) or exactly the deployed ones (local/function-bundles.ts). */
  bundling?: FunctionBundling;
  /** Where a handler's source is, relative to the repository (default: functions/handlers/<name>.ts). */
  entryOf?: (handler: string) => string;
}

/**
 * Handler modules are imported on first use, as a cold start would, after the environment is set: once
 * for each gateway, whose environment their module-scope clients read (a test's own gateway after
 * another's in one process: test/support/own-gateway.ts).
 */
function handlerLoader(): (name: string) => Promise<LambdaHandler> {
  const loaded = new Map<string, Promise<LambdaHandler>>();
  return (name) => {
    let handler = loaded.get(name);
    if (!handler) {
      handler = import(pathToFileURL(join(HANDLERS_DIR, `${name}.ts`)).href).then((m) => m.handler as LambdaHandler);
      loaded.set(name, handler);
    }
    return handler;
  };
}

/** Function output as it is, as the in-process mode prints it. */
const CONSOLE: Logger = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

const routeTimeoutMs = (route: { timeoutSeconds?: number }) => (route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;

/**
 * Runs the routes' functions as Lambda runs them, and keeps the invocations still running: closing
 * waits for them, so none calls back into a stopped gateway.
 */
export function createFunctions(options: FunctionOptions, routes: readonly RouteEntry[]) {
  const timeoutOf = options.timeoutMs ?? routeTimeoutMs;
  const loadHandler = handlerLoader();
  const handlerOf = (name: string) => {
    const given = options.handlers?.[name];
    return given ? Promise.resolve(given) : loadHandler(name);
  };
  const isolated = !options.handlers && options.functions !== 'in-process';
  /** Each route's function as its environments start it: computed once, not on every request. */
  const specs = new Map<RouteEntry, LocalFunctionSpec>();
  const functionSpec = (route: RouteEntry): LocalFunctionSpec => {
    let spec = specs.get(route);
    if (!spec) {
      spec = {
        name: route.handler,
        environment: {
          ...environmentFor(route.capabilities, options.environment),
          // Who is calling, as IAM knows it from the signature: the DynamoDB proxy grants what the route declares.
          AWS_ACCESS_KEY_ID: functionAccessKeyId(route.handler, route.table),
        },
      };
      specs.set(route, spec);
    }
    return spec;
  };
  const environments = isolated ? isolatedFunctions() : undefined;

  /** Bundles every function of the routes (local/function-bundles.ts); environments start from them. */
  function isolatedFunctions() {
    const built = cachedFunctionBundles({
      handlers: [...new Set(routes.map((r) => r.handler))],
      entryOf: options.entryOf ?? handlerEntry,
      bundling: options.bundling,
    }).then((bundles) =>
      createFunctionEnvironments({
        bundles,
        limits: { perFunction: options.environmentsPerFunction, total: options.environmentsTotal },
        warmWaitMs: options.warmWaitMs,
        log: options.log,
        functionLog: options.functionLog ?? CONSOLE,
      }),
    );
    built.catch(() => {});
    return built;
  }

  const running = new Set<Promise<unknown>>();
  let closing = false;

  /**
   * Runs a route's handler as its function would run: its own environment, and its timeout counted
   * from the invocation (a cold start's module loading has Lambda's separate 10 s init limit), and
   * only the table access its route declares (local/table-guard.ts).
   */
  async function runFunction(route: RouteEntry, event: unknown) {
    const timeoutMs = timeoutOf(route);
    if (environments) {
      return (await environments).invoke(functionSpec(route), event, {
        timeoutMs,
        // Lambda's 10 s init limit, then again within the invocation's timeout ("suppressed init").
        initTimeoutMs: INIT_TIMEOUT_MS + timeoutMs,
        // A queue's message waits for its consumer as long as it must; a request, as long as API Gateway waits.
        admissionMs:
          'queue' in route || 'schedule' in route
            ? Number.POSITIVE_INFINITY
            : (options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS),
      });
    }
    const fn = { name: route.handler, environment: environmentFor(route.capabilities, options.environment), table: route.table };
    const handler = await invoke(fn, INIT_TIMEOUT_MS, async () => {
      const loaded = await handlerOf(route.handler);
      await guardFunctionsTable();
      return loaded;
    });
    return invoke(fn, timeoutMs, () => handler(event, lambdaContext(route.handler, Date.now() + timeoutMs)));
  }

  /** Keeps `work` among what closing waits for. */
  function track<T>(work: Promise<T>): Promise<T> {
    running.add(work);
    const forget = () => running.delete(work);
    work.then(forget, forget);
    return work;
  }

  /**
   * Starts one environment of every function that has none, one function at a time (the other cores
   * stay free for the requests meanwhile), as provisioned concurrency would; later cold starts come
   * as Lambda's do. Answers how many were started (none in-process).
   */
  async function warmAll(): Promise<number> {
    if (!environments) return 0;
    const pool = await environments;
    const handlers = new Map<string, RouteEntry>();
    for (const route of routes) if (!handlers.has(route.handler)) handlers.set(route.handler, route);
    let warmed = 0;
    for (const route of handlers.values()) {
      if (closing) break;
      if (await pool.prewarm(functionSpec(route), INIT_TIMEOUT_MS + timeoutOf(route))) warmed += 1;
    }
    return warmed;
  }

  return {
    run: (route: RouteEntry, event: unknown) => track(runFunction(route, event)),
    /**
     * The access key a route's function signs its AWS requests with: its own in environments of their
     * own (functionAccessKeyId), the stack's shared one in-process (one SDK client serves them all there).
     */
    accessKeyOf: (route: RouteEntry): string | undefined =>
      isolated ? functionSpec(route).environment.AWS_ACCESS_KEY_ID : options.environment.AWS_ACCESS_KEY_ID,
    warmAll: () => track(warmAll()),
    track,
    /** Once closing, nothing new is started in the background (queue retries, scheduled runs). */
    get closing() {
      return closing;
    },
    /** Settles once the functions are bundled (at once in-process). */
    built: async () => {
      await environments;
    },
    /** Stops background work and waits for every invocation still running. */
    settle: async () => {
      closing = true;
      await Promise.allSettled(running);
    },
    /** Ends every environment (the bundles stay in their cache for the next stack). */
    close: async () => {
      await (await environments?.catch(() => undefined))?.close();
    },
    /** Each function's environments, cold starts and invocations (isolated mode; empty in-process). */
    stats: async () => (environments ? (await environments).stats() : {}),
  };
}

export type Functions = ReturnType<typeof createFunctions>;
