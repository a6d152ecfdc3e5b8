/**
 * The browser project's local stack, in a process of its own: the stack's handlers run in the process
 * that starts it and configure themselves from process.env, so a second stack next to the integration
 * project's (vitest starts every project's global setup in one process) would overwrite its settings.
 *
 * Run by test/support/browser-setup.ts. Prints one line `STACK <json>` (urls and env) when ready; stops
 * the stack and exits on SIGTERM, SIGINT, or when the parent closes stdin (the parent went away).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quietLogger } from '../../local/log';
import { freePort } from '../../local/ports';
import { localSettings } from '../../local/settings';
import { startLocalStack } from '../../local/stack';

const READY_PREFIX = 'STACK '; // read by browser-setup.ts

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-browser-'));
const settings = localSettings({ LOCAL_DATA_DIR: dataDir, PLATFORM_ADMIN_EMAILS: process.env.PLATFORM_ADMIN_EMAILS ?? '' });
const [apiPort, sesPort, dynamoPort, webPort, twilioEmulatorPort] = await Promise.all([
  freePort(),
  freePort(),
  freePort(),
  freePort(),
  freePort(),
]);

let stopping = false;
async function shutdown(stop?: () => Promise<void>) {
  if (stopping) return;
  stopping = true;
  await stop?.().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

try {
  const stack = await startLocalStack({
    ...settings,
    apiPort,
    sesPort,
    dynamoPort,
    webPort,
    twilioEmulatorPort,
    persist: false,
    web: true,
    log: () => quietLogger,
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(stack.stop));
  process.stdin.on('end', () => void shutdown(stack.stop));
  process.stdin.on('close', () => void shutdown(stack.stop));
  process.stdin.resume();
  process.stdout.write(`${READY_PREFIX}${JSON.stringify({ urls: stack.urls, env: stack.env, twilioDemo: stack.twilioDemo })}\n`);
} catch (error) {
  console.error(`browser stack failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
