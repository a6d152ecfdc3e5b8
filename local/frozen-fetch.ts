import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Lambda freezes a function once it answers and stops it at its timeout, so work it left running
 * cannot be relied on to finish: with this, an outside call (fetch) whose invocation has ended never
 * settles. `frozenTest` runs when a call starts and returns the test of whether that call's invocation
 * has ended; both modes use it (local/function-scope.ts in-process, local/function-runtime.ts in an
 * environment of its own).
 */
export function freezeFetchAfterInvocation(frozenTest: () => () => boolean): void {
  const realFetch = globalThis.fetch;
  const never = new Promise<never>(() => {});
  globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
    const frozen = frozenTest();
    try {
      const response = await realFetch(...args);
      return frozen() ? never : response;
    } catch (error) {
      if (frozen()) return never;
      throw error;
    }
  }) as typeof fetch;
}

/**
 * The same for calls made through node:http and node:https, as the AWS SDK makes them (its Node.js
 * handler reads `request` off these modules): once the call's invocation has ended, its answer and its
 * errors are never delivered, so the function goes no further with it. The in-process mode uses it
 * (local/function-scope.ts): there a timed-out function is not stopped, and without it an SDK call in
 * flight at the timeout would answer later and the function go on to its next side effect. In an
 * environment of its own the timeout ends the worker, calls in flight with it.
 */
export function freezeHttpAfterInvocation(frozenTest: () => () => boolean): void {
  for (const module of [http, https]) {
    const realRequest = module.request;
    module.request = ((...args: Parameters<typeof http.request>) => {
      const frozen = frozenTest();
      const request = realRequest(...args);
      const emit = request.emit.bind(request);
      request.emit = ((event: string | symbol, ...rest: unknown[]) =>
        (event === 'response' || event === 'error' || event === 'timeout') && frozen()
          ? false
          : emit(event, ...rest)) as typeof request.emit;
      return request;
    }) as typeof http.request;
  }
  // Named imports of node:http (`import { request } from 'node:http'`) see the wrapper too.
  syncBuiltinESMExports();
}
