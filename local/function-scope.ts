import { AsyncLocalStorage } from 'node:async_hooks';
import type { TableAccess } from '../functions/lib/capabilities';
import { freezeFetchAfterInvocation, freezeHttpAfterInvocation } from './frozen-fetch';

/**
 * Lambda gives each function its own process: its own environment, and a timeout that stops it. The
 * local handlers share one process, so each invocation runs in a scope that stands in for both:
 * `process.env` answers with the function's own environment inside it, and once the invocation has
 * answered or timed out, its outside calls (fetch, and node:http as the AWS SDK uses it) never settle: Lambda freezes a function when it
 * answers and stops it at its timeout, so work left running then cannot be relied on to finish. It
 * also carries what the function's role allows on the table (local/table-guard.ts enforces it).
 */
export interface LocalFunction {
  /** The function's name (its handler), as an AWS error would name its role session. */
  name: string;
  environment: Record<string, string>;
  table: TableAccess;
}

interface Invocation extends LocalFunction {
  stopped: boolean;
}

const scope = new AsyncLocalStorage<Invocation>();
let installed = false;

/** Whether the invocation a call starts in has ended (answered or timed out). */
const stoppedTest = () => {
  const invocation = scope.getStore();
  return () => invocation?.stopped === true;
};
/**
 * node:http is frozen as soon as this module loads, before any SDK client's first request: the SDK
 * keeps the `request` it finds then. Outside an invocation's scope nothing changes.
 */
freezeHttpAfterInvocation(stoppedTest);

function install() {
  if (installed) return;
  installed = true;
  const host = process.env;
  const current = () => scope.getStore()?.environment ?? host;
  process.env = new Proxy(host, {
    get: (_, name) => (typeof name === 'string' ? current()[name] : undefined),
    set: (_, name, value) => {
      current()[String(name)] = String(value);
      return true;
    },
    has: (_, name) => typeof name === 'string' && name in current(),
    deleteProperty: (_, name) => delete current()[String(name)],
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, name) => {
      const env = current();
      return typeof name === 'string' && name in env
        ? { value: env[name], writable: true, enumerable: true, configurable: true }
        : undefined;
    },
  });

  freezeFetchAfterInvocation(stoppedTest);
}

export class FunctionTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
  }
}

/** The function whose invocation the caller runs in, if any. */
export function currentFunction(): LocalFunction | undefined {
  return scope.getStore();
}

/** Runs one invocation of the function, in its environment, rejecting with FunctionTimeout after timeoutMs. */
export function invoke<T>(fn: LocalFunction, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  install();
  const invocation: Invocation = { ...fn, environment: { ...fn.environment }, stopped: false };
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      invocation.stopped = true;
      reject(new FunctionTimeout(timeoutMs));
    }, timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      const answered = !invocation.stopped;
      invocation.stopped = true;
      return answered;
    };
    scope.run(invocation, run).then(
      (value) => settle() && resolve(value),
      (error) => settle() && reject(error),
    );
  });
}
