import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSecurityPolicy, inlineScriptHashes } from '../web/content-security-policy';
import type { Logger } from './log';

const CONFIG_FILE = join(import.meta.dirname, '..', 'web', 'vite.config.ts');

/**
 * The SPA on `port`, proxying /api and /ws to the local gateway, told where the emulator's signalling
 * is: the Vite dev server (`npm start`: edits show at once), or `built`: the production build served as
 * CloudFront serves it, with its Content-Security-Policy header (the browser tests: a page loads a
 * few files instead of compiling hundreds of modules on its first visit).
 */
export async function startWeb(options: {
  port: number;
  apiPort: number;
  signallingHost: string;
  /** The pictures bucket's origin: the page uploads to it and reads sent pictures from it. */
  picturesOrigin: string;
  log: Logger;
  built?: boolean;
}) {
  process.env.API_PORT = String(options.apiPort);
  process.env.PICTURES_ORIGIN = options.picturesOrigin;
  process.env.WEB_PORT = String(options.port);
  // The web app's Voice SDK connects to the emulator's signalling (its `chunderw`); a production build
  // has no such variable and uses Twilio's own.
  process.env.VITE_TWILIO_SIGNALLING_HOST = options.signallingHost;
  return options.built ? startBuilt(options) : startDev(options);
}

async function quietLogger() {
  const { createLogger } = await import('vite');
  // A tab that closes without a close frame resets the proxied socket: routine for a WebSocket, no error.
  const logger = createLogger('warn');
  const logError = logger.error.bind(logger);
  logger.error = (message, options) => {
    if (!(message.includes('ws proxy') && /ECONNRESET|EPIPE/.test(`${message} ${options?.error?.message ?? ''}`))) {
      logError(message, options);
    }
  };
  return logger;
}

/**
 * Vite's servers (dev and preview) exit the process on SIGTERM (and at the end of stdin) after closing
 * only themselves, which would orphan DynamoDB Local and the SES emulator: the stack's owner handles
 * shutdown instead, so the listeners `start` adds are taken off again.
 */
async function withoutViteExit<T>(start: () => Promise<T>): Promise<T> {
  const before = { sigterm: process.listeners('SIGTERM'), stdinEnd: process.stdin.listeners('end') };
  const started = await start();
  for (const l of process.listeners('SIGTERM')) if (!before.sigterm.includes(l)) process.off('SIGTERM', l);
  for (const l of process.stdin.listeners('end')) if (!before.stdinEnd.includes(l)) process.stdin.off('end', l as () => void);
  return started;
}

async function startDev(options: { port: number }) {
  const { createServer } = await import('vite');
  const customLogger = await quietLogger();
  const server = await withoutViteExit(() =>
    createServer({ configFile: CONFIG_FILE, server: { port: options.port, strictPort: true }, customLogger, clearScreen: false }),
  );
  await server.listen();
  return { url: `http://localhost:${options.port}`, stop: () => server.close() };
}

async function startBuilt(options: { port: number; signallingHost: string; picturesOrigin: string }) {
  const { build, preview } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'switchboard-web-'));
  const customLogger = await quietLogger();
  await build({ configFile: CONFIG_FILE, customLogger, build: { outDir, emptyOutDir: true, sourcemap: false } });
  // CloudFront's policy (infra/), with the emulator's signalling and sounds in place of Twilio's.
  const emulator = [`wss://${options.signallingHost}`, `https://${options.signallingHost}`];
  const policy = contentSecurityPolicy({
    scriptHashes: inlineScriptHashes(readFileSync(join(outDir, 'index.html'), 'utf8')),
    connect: [...emulator, options.picturesOrigin],
    media: emulator.slice(1),
    header: true,
  });
  // The preview server proxies as the dev server does (vite.config.ts `server.proxy`).
  const server = await withoutViteExit(() =>
    preview({
      configFile: CONFIG_FILE,
      customLogger,
      build: { outDir },
      preview: { host: '127.0.0.1', port: options.port, strictPort: true, headers: { 'Content-Security-Policy': policy } },
    }),
  );
  return {
    url: `http://localhost:${options.port}`,
    stop: async () => {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
