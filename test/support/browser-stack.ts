/**
 * The browser project's local stack, in a process of its own: its tests move the stack's clock
 * (local/clock.ts, through clock-control.ts), which is the clock of the process it runs in, and vitest
 * starts every project's global setup in one process, where the integration stack's clock must not move.
 *
 * Run by test/support/browser-setup.ts. Prints one line `STACK <json>` (urls, env and the address of its
 * clock control, test/support/clock-control.ts) when ready; stops the stack and exits on SIGTERM, SIGINT, or when the parent closes stdin (the parent went away).
 */

import { startClockControl } from './clock-control';
import { PLATFORM_ADMIN_DELETION, PLATFORM_ADMIN_NAMED, PLATFORM_ADMIN_OVERVIEW } from './global-setup';
import {
  BROWSER_SIGNALLING_HEARTBEAT_MS,
  BROWSER_THROTTLE_WINDOW_SCALE,
  BROWSER_VOICE_TOKEN_TTL_SECONDS,
  type ProvidedStack,
  startTestStack,
} from './test-stack';

const READY_PREFIX = 'STACK '; // read by browser-setup.ts

let stopping = false;
async function shutdown(stop?: () => Promise<void>) {
  if (stopping) return;
  stopping = true;
  await stop?.().catch(() => {});
  process.exit(0);
}

try {
  // The tests move this process's clock (local/clock.ts) past a timer instead of waiting for it.
  const clock = await startClockControl();
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
    // token within a call whose clocks a browser test runs ahead (softphone-long-call.test.ts).
    voiceTokenTtlSeconds: BROWSER_VOICE_TOKEN_TTL_SECONDS,
    // The emulator's heartbeat 20 times as often, so a page's clock can run 20 times as fast and still
    // hear one every 5 s of it (softphone-long-call.test.ts).
    signallingHeartbeatMs: BROWSER_SIGNALLING_HEARTBEAT_MS,
    // Local-only (functions/lib/throttle.ts): a 15-second refresh throttle window, so the 429-storm test
    // (sessions.test.ts) moves the clocks seconds past it, not a minute.
    throttleWindowScale: BROWSER_THROTTLE_WINDOW_SCALE,
  });
  const provided: ProvidedStack = { ...stack.provided, clock: clock.url };
  const stop = async () => {
    await clock.stop();
    await stack.stop();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(stop));
  process.stdin.on('end', () => void shutdown(stop));
  process.stdin.on('close', () => void shutdown(stop));
  process.stdin.resume();
  process.stdout.write(`${READY_PREFIX}${JSON.stringify(provided)}\n`);
} catch (error) {
  console.error(`browser stack failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}
