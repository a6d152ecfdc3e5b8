import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Logger, quietLogger } from '../../local/log';
import { freePort } from '../../local/ports';
import { localSettings } from '../../local/settings';
import { type LocalStack, startLocalStack } from '../../local/stack';

/**
 * The browser project's voice token lifetime (the local-only setting; in AWS always 15 minutes). The
 * SDK asks for the next token 10 s before the end (40 s in on the page's clock: time enough to sign in
 * and answer a call first) and registers every 30 s, so a registration under the new token comes about
 * a minute in; softphone-long-call.test.ts runs the page's and the stack's clocks there.
 */
export const BROWSER_VOICE_TOKEN_TTL_SECONDS = 50;

/**
 * The Twilio emulator's signalling heartbeat on the browser stack: every 250 ms, not 5 s. The Voice SDK
 * drops a socket that hears nothing for 15 s of its page's clock; a test that runs that clock ahead
 * (softphone-long-call.test.ts) moves it 5 s per beat heard, so the SDK hears the emulator's beat at its
 * pace outside tests.
 */
export const BROWSER_SIGNALLING_HEARTBEAT_MS = 250;

/**
 * The browser project's sign-in and session throttle windows, as a share of AWS's (the local-only
 * setting, functions/lib/throttle.ts): the one-minute refresh window lasts 15 s, so a test that moves
 * the stack's clock past a 429 storm's window moves it seconds, not a minute.
 */
export const BROWSER_THROTTLE_WINDOW_SCALE = 1 / 4;

/** A started test stack. */
export type TestStack = Awaited<ReturnType<typeof startTestStack>>;

/** What the test projects hand to their tests (stack-handoff.ts). */
export type ProvidedStack = Pick<LocalStack, 'urls' | 'env' | 'twilioDemo' | 'webBuildDir'> & {
  /** The stack's clock control (test/support/clock-control.ts): the browser stack's only. */
  clock?: string;
};

/**
 * A real local stack for tests: every part on a free port, an in-memory database, a temporary data
 * folder, quiet logs. `stop` ends every part and removes the folder.
 */
export async function startTestStack(options: {
  web: boolean;
  /** The web app as built for CloudFront, not the dev server (local/web.ts). */
  webBuild?: boolean;
  platformAdminEmails?: string;
  label: string;
  /** The Twilio emulator's time per message status step. */
  twilioMessageStepMs?: number;
  /** A voice token lifetime under 15 minutes (functions/voice/voice-token.ts). */
  voiceTokenTtlSeconds?: number;
  /** The Twilio emulator's signalling heartbeat interval (its own default, 5 s, without one). */
  signallingHeartbeatMs?: number;
  /** Sign-in and session throttle windows shorter than AWS's, by this fraction (functions/lib/throttle.ts). */
  throttleWindowScale?: number;
  /** `bundled`: the functions run from exactly the bundles `cdk deploy` uploads (local/function-bundles.ts). */
  handlers?: 'bundled';
  /** How long a busy function's invocation waits for a warm environment before a new one starts (local/function-environments.ts). */
  warmWaitMs?: number;
  /** A function's environments at most (default: from the cores, local/function-environments.ts). */
  environmentsPerFunction?: number;
  /** Each part's logger (default: quiet). */
  log?: (name: string) => Logger;
}) {
  const dataDir = mkdtempSync(join(tmpdir(), `switchboard-${options.label}-`));
  try {
    const settings = localSettings({
      LOCAL_DATA_DIR: dataDir,
      PLATFORM_ADMIN_EMAILS: options.platformAdminEmails ?? '',
      // Transaction conflicts are on, as in AWS, unless the run turns them off
      // (docs/local-stack.md: DynamoDB's transaction conflicts).
      DYNAMODB_CONFLICTS: process.env.DYNAMODB_CONFLICTS,
      // A function's environments, and all functions' together, at most, as `npm start` reads them
      // (docs/local-stack.md: Configuration).
      LOCAL_FUNCTION_CONCURRENCY: process.env.LOCAL_FUNCTION_CONCURRENCY,
      LOCAL_FUNCTION_ENVIRONMENTS: process.env.LOCAL_FUNCTION_ENVIRONMENTS,
      // In-process functions for debugging or comparison, as `npm start` reads it (docs/local-stack.md: Configuration).
      LOCAL_FUNCTIONS: process.env.LOCAL_FUNCTIONS,
      // The deployed bundles instead of local ones, for the whole run or for one stack (test/bundled).
      SWITCHBOARD_HANDLERS: options.handlers ?? process.env.SWITCHBOARD_HANDLERS,
    });
    const ports = () =>
      Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort(), freePort()] as const);
    const [apiPort, sesPort, dynamoPort, webPort, twilioEmulatorPort, twilioSignallingPort, picturesPort] = await ports();
    const stack = await startLocalStack({
      ...settings,
      apiPort,
      sesPort,
      dynamoPort,
      webPort,
      twilioEmulatorPort,
      twilioSignallingPort,
      picturesPort,
      persist: false,
      web: options.web,
      webBuild: options.webBuild,
      twilioMessageStepMs: options.twilioMessageStepMs,
      voiceTokenTtlSeconds: options.voiceTokenTtlSeconds,
      signallingHeartbeatMs: options.signallingHeartbeatMs,
      throttleWindowScale: options.throttleWindowScale,
      warmWaitMs: options.warmWaitMs,
      // The run's LOCAL_FUNCTION_CONCURRENCY wins over the stack's own.
      environmentsPerFunction: settings.environmentsPerFunction ?? options.environmentsPerFunction,
      // Hundreds of sign-ups at production cost would take minutes; no test measures the cost itself.
      passwordScryptN: 2 ** 14,
      log: options.log ?? (() => quietLogger),
    });
    const provided: ProvidedStack = {
      urls: stack.urls,
      env: stack.env,
      twilioDemo: stack.twilioDemo,
      webBuildDir: stack.webBuildDir,
    };
    return {
      provided,
      /** Each function's environments, cold starts and invocations (the soak reports them). */
      functionStats: stack.functionStats,
      /** Runs a scheduled function now (npm run cost). */
      runScheduled: stack.runScheduled,
      /** The stack's processes besides this one: DynamoDB Local's java and the SES emulator. */
      processes: stack.processes,
      stop: async () => {
        await stack.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
