import { join } from 'node:path';
import type { Logger } from './log';

/** The Vite dev server for the SPA, proxying /api and /ws to the local gateway, told where the emulator's signalling is. */
export async function startWeb(options: { port: number; apiPort: number; signallingHost: string; log: Logger }) {
  process.env.API_PORT = String(options.apiPort);
  process.env.WEB_PORT = String(options.port);
  // The web app's Voice SDK connects to the emulator's signalling (its `chunderw`); a production build
  // has no such variable and uses Twilio's own.
  process.env.VITE_TWILIO_SIGNALLING_HOST = options.signallingHost;
  const { createLogger, createServer } = await import('vite');
  // A tab that closes without a close frame resets the proxied socket: routine for a WebSocket, no error.
  const logger = createLogger('warn');
  const logError = logger.error.bind(logger);
  logger.error = (message, options) => {
    if (!(message.includes('ws proxy') && /ECONNRESET|EPIPE/.test(`${message} ${options?.error?.message ?? ''}`))) {
      logError(message, options);
    }
  };
  const before = { sigterm: process.listeners('SIGTERM'), stdinEnd: process.stdin.listeners('end') };
  const server = await createServer({
    configFile: join(import.meta.dirname, '..', 'web', 'vite.config.ts'),
    server: { port: options.port, strictPort: true },
    customLogger: logger,
    clearScreen: false,
  });
  // Vite's dev server exits the process on SIGTERM (and at the end of stdin) after closing only itself,
  // which would orphan DynamoDB Local and the SES emulator: the stack's owner handles shutdown instead.
  for (const l of process.listeners('SIGTERM')) if (!before.sigterm.includes(l)) process.off('SIGTERM', l);
  for (const l of process.stdin.listeners('end')) if (!before.stdinEnd.includes(l)) process.stdin.off('end', l as () => void);
  await server.listen();
  return { url: `http://localhost:${options.port}`, stop: () => server.close() };
}
