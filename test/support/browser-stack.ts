/**
 * The browser project's local stack, in a process of its own: the stack's handlers run in the process
 * that starts it and configure themselves from process.env, so a second stack next to the integration
 * project's (vitest starts every project's global setup in one process) would overwrite its settings.
 *
 * Run by test/support/browser-setup.ts. Prints one line `STACK <json>` (urls and env) when ready; stops
 * the stack and exits on SIGTERM, SIGINT, or when the parent closes stdin (the parent went away).
 */

import { PLATFORM_ADMIN_DELETION, PLATFORM_ADMIN_NAMED, PLATFORM_ADMIN_OVERVIEW } from './global-setup';
import { BROWSER_THROTTLE_WINDOW_SCALE, BROWSER_VOICE_TOKEN_TTL_SECONDS, startTestStack } from './test-stack';

const READY_PREFIX = 'STACK '; // read by browser-setup.ts

let stopping = false;
async function shutdown(stop?: () => Promise<void>) {
  if (stopping) return;
  stopping = true;
  await stop?.().catch(() => {});
  process.exit(0);
}

try {
  const stack = await startTestStack({
    web: true,
    // The app as deployed: a page loads its few built files, not hundreds of dev-server modules.
    // BROWSER_WEB=dev runs the journeys against the dev server instead.
    webBuild: process.env.BROWSER_WEB !== 'dev',
    // The admin tests' administrators, besides any the environment names.
    platformAdminEmails: [
      process.env.PLATFORM_ADMIN_EMAILS,
      PLATFORM_ADMIN_OVERVIEW,
      PLATFORM_ADMIN_NAMED,
      PLATFORM_ADMIN_DELETION,
    ]
      .filter(Boolean)
      .join(','),
    label: 'browser',
    // Local-only (functions/voice/voice-token.ts): voice tokens of 50 s, so the softphone renews its
    // token within a call a browser test can wait for (softphone-long-call.test.ts), not in 15 minutes.
    voiceTokenTtlSeconds: BROWSER_VOICE_TOKEN_TTL_SECONDS,
    // Local-only (functions/lib/throttle.ts): a 15-second refresh throttle window, so the 429-storm test
    // (sessions.test.ts) waits seconds for the next window, not a minute.
    throttleWindowScale: BROWSER_THROTTLE_WINDOW_SCALE,
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(stack.stop));
  process.stdin.on('end', () => void shutdown(stack.stop));
  process.stdin.on('close', () => void shutdown(stack.stop));
  process.stdin.resume();
  process.stdout.write(`${READY_PREFIX}${JSON.stringify(stack.provided)}\n`);
} catch (error) {
  console.error(`browser stack failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}
