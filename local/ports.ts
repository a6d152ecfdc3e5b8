import { createServer } from 'node:net';

/** A clear, one-line explanation instead of a stack trace when a part cannot start. */
export class StartupError extends Error {
  override name = 'StartupError';
}

export async function assertPortFree(port: number, knob: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new StartupError(
          error.code === 'EADDRINUSE'
            ? `Port ${port} (${knob}) is already in use. Stop whatever listens there (see: lsof -i :${port}) or choose another port, e.g. ${knob}=${port + 1} npm start.`
            : `Port ${port} (${knob}) cannot be opened: ${error.message}`,
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/** A free loopback port, for tests that start their own stack. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

// A bound, not a goal: DynamoDB Local's JVM starts in about 3 s, but took over 30 s on a 2-core
// machine running two test suites at once.
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new StartupError(`${what} did not become ready within ${timeoutMs / 1000} s.`);
}
