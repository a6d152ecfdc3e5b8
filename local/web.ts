import { join } from 'node:path';
import type { Logger } from './log';

/** The Vite dev server for the SPA, proxying /api and /ws to the local gateway. */
export async function startWeb(options: { port: number; apiPort: number; log: Logger }) {
  process.env.API_PORT = String(options.apiPort);
  const { createServer } = await import('vite');
  const server = await createServer({
    configFile: join(import.meta.dirname, '..', 'web', 'vite.config.ts'),
    server: { port: options.port, strictPort: true },
    logLevel: 'warn',
    clearScreen: false,
    customLogger: undefined,
  });
  await server.listen();
  return { url: `http://localhost:${options.port}`, stop: () => server.close() };
}
