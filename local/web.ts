import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import type { Plugin } from 'vite';
import { cacheControlFor } from '../web/cache-control';
import { contentSecurityPolicy, inlineScriptHashes } from '../web/content-security-policy';
import type { Logger } from './log';

const WEB_ROOT = join(import.meta.dirname, '..', 'web');
const CONFIG_FILE = join(WEB_ROOT, 'vite.config.ts');

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
  return { url: `http://localhost:${options.port}`, builtDir: undefined, stop: () => server.close() };
}

async function startBuilt(options: { port: number; apiPort: number; signallingHost: string; picturesOrigin: string }) {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'switchboard-web-'));
  const customLogger = await quietLogger();
  await build({ configFile: CONFIG_FILE, customLogger, build: { outDir, emptyOutDir: true, sourcemap: false } });
  const server = await serveBuiltWeb({ ...options, outDir });
  return {
    url: server.url,
    /** The build it serves (the browser tests copy it to play a release: test/e2e/release.test.ts). */
    builtDir: outDir as string | undefined,
    stop: async () => {
      await server.stop();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * Serves a built web app from `outDir` as CloudFront and its bucket serve it (infra/constructs/web-hosting.ts),
 * proxying /api and /ws to the gateway on `apiPort`: the app's Content-Security-Policy, Cache-Control by
 * file (web/cache-control.ts), and a file that is not there answered 403 as S3 answers CloudFront, never
 * index.html. Files are read at each request, so a test can put another release in the folder.
 */
export async function serveBuiltWeb(options: {
  outDir: string;
  port: number;
  apiPort: number;
  signallingHost: string;
  picturesOrigin: string;
}) {
  const { preview } = await import('vite');
  const customLogger = await quietLogger();
  // CloudFront's policy (infra/), with the emulator's signalling and sounds in place of Twilio's.
  const emulator = [`wss://${options.signallingHost}`, `https://${options.signallingHost}`];
  const policy = contentSecurityPolicy({
    scriptHashes: inlineScriptHashes(readFileSync(join(options.outDir, 'index.html'), 'utf8')),
    connect: [...emulator, options.picturesOrigin],
    media: emulator.slice(1),
    header: true,
  });
  const api = `http://127.0.0.1:${options.apiPort}`;
  // The proxy of the dev server (vite.config.ts `server.proxy`), given here so that several can run in one process.
  const server = await withoutViteExit(() =>
    preview({
      configFile: false,
      root: WEB_ROOT,
      appType: 'spa',
      customLogger,
      clearScreen: false,
      plugins: [servedAsCloudFront(options.outDir)],
      build: { outDir: options.outDir },
      preview: {
        host: '127.0.0.1',
        port: options.port,
        strictPort: true,
        headers: { 'Content-Security-Policy': policy },
        proxy: { '/api': { target: api, changeOrigin: false }, '/ws': { target: api, ws: true } },
      },
    }),
  );
  return { url: `http://localhost:${options.port}`, stop: () => server.close() };
}

/** The paths CloudFront sends to the APIs rather than to the bucket (infra/constructs/web-hosting.ts). */
const API_PATHS = /^\/(api|webhooks|ws)(\/|$)/;

/**
 * Before Vite's own: each file's Cache-Control, and 403 for a path with a file name that the build has
 * not (CloudFront's viewer-request function sends only paths without one to index.html; the bucket
 * answers 403 for a missing key, as CloudFront may not list it). Vite would answer such a request with
 * index.html, and an old chunk's import would fail otherwise than in AWS.
 */
function servedAsCloudFront(outDir: string): Plugin {
  return {
    name: 'switchboard-served-as-cloudfront',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
        if (API_PATHS.test(pathname)) return next();
        const last = pathname.slice(pathname.lastIndexOf('/') + 1);
        if (last.includes('.') && !existsSync(join(outDir, normalize(pathname)))) {
          res.statusCode = 403;
          res.end();
          return;
        }
        res.setHeader('Cache-Control', cacheControlFor(pathname));
        next();
      });
    },
  };
}
