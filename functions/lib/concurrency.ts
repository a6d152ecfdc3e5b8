/**
 * Runs `fn` over the items with at most `limit` calls in flight: a fan-out to hundreds of sockets
 * neither opens hundreds of requests at once nor waits for them one by one.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
