import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { handOffStack, type StackHandOff } from './stack-handoff';
import type { ProvidedStack } from './test-stack';

/** The line browser-stack.ts prints once the stack answers. */
const READY_PREFIX = 'STACK ';
const STARTUP_TIMEOUT_MS = 240_000;

let child: ChildProcess | undefined;
let handOff: StackHandOff<{ provided: ProvidedStack }> | undefined;

/**
 * Global setup of the `browser` project: one local stack with the web app (built as for
 * CloudFront, served with /api and /ws proxied; BROWSER_WEB=dev: the Vite dev server), on free ports,
 * with an in-memory database, started in a child process (see browser-stack.ts for why) and handed to
 * the tests when it answers (stack-handoff.ts), like the integration project's.
 */
export function setup(project: TestProject) {
  handOff = handOffStack(project, 'browser', async () => ({ provided: await startChild() }));
}

async function startChild(): Promise<ProvidedStack> {
  const script = fileURLToPath(new URL('./browser-stack.ts', import.meta.url));
  const started = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child = started;
  const stack = await new Promise<ProvidedStack>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`browser stack not ready within ${STARTUP_TIMEOUT_MS / 1000} s`)),
      STARTUP_TIMEOUT_MS,
    );
    const lines = createInterface({ input: started.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (!line.startsWith(READY_PREFIX)) {
        if (line.trim()) console.log(`[browser stack] ${line}`);
        return;
      }
      clearTimeout(timer);
      resolve(JSON.parse(line.slice(READY_PREFIX.length)));
    });
    started.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    started.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`browser stack exited before it was ready (code ${code}, signal ${signal}); see its error above`));
    });
  }).catch(async (error) => {
    await stopChild();
    throw error;
  });
  return stack;
}

export async function teardown() {
  await handOff?.forget();
  await stopChild();
}

async function stopChild() {
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
  running.kill('SIGTERM');
  const timeout = setTimeout(() => running.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timeout);
}
