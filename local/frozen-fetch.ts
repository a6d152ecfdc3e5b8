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
