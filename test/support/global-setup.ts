import type { TestProject } from 'vitest/node';
import { captureProductLog } from './captured-log';
import { handOffStack, type StackHandOff } from './stack-handoff';
import { startTestStack, type TestStack } from './test-stack';

export const PLATFORM_ADMIN = 'admin@platform.test';
/** A second administrator address, for the test that registers it as a stranger would. */
export const PLATFORM_ADMIN_UNCLAIMED = 'root@platform.test';
/** The administrator the admin overview tests sign up (its own, so no other file races to register it). */
export const PLATFORM_ADMIN_OVERVIEW = 'overview@platform.test';
/** An administrator whose session began before the operator named the address (tokens re-signed without the claim). */
export const PLATFORM_ADMIN_NAMED = 'named@platform.test';
/** The administrator the company-deletion tests sign up. */
export const PLATFORM_ADMIN_DELETION = 'deletion@platform.test';

let handOff: StackHandOff<TestStack> | undefined;
let stopCapture: (() => void) | undefined;

/**
 * One real local stack for the integration project, on free ports, with an in-memory database, handed
 * to its tests when it answers (stack-handoff.ts).
 */
export function setup(project: TestProject) {
  const captured = captureProductLog();
  stopCapture = captured.stop;
  project.provide('productLog', captured.file);
  handOff = handOffStack(project, 'integration', () =>
    startTestStack({
      log: captured.log,
      web: false,
      platformAdminEmails: [
        PLATFORM_ADMIN,
        PLATFORM_ADMIN_UNCLAIMED,
        PLATFORM_ADMIN_OVERVIEW,
        PLATFORM_ADMIN_NAMED,
        PLATFORM_ADMIN_DELETION,
      ].join(','),
      label: 'test',
      // Fast enough for many tests, never zero: a message's callbacks still come one step apart, in order.
      twilioMessageStepMs: 20,
      // Parallel writers meet as in Lambda, which starts an environment for each at once: the table's
      // conflict tests (table-conflicts, test/load) need several of a function running side by side.
      warmWaitMs: 0,
      environmentsPerFunction: 4,
    }),
  );
}

export async function teardown() {
  const stack = await handOff?.started;
  await handOff?.forget();
  const dynamodbUrl = stack?.provided.urls.dynamodb;
  // What the run asked of the table, and the transaction conflicts it met (local/dynamodb-proxy.ts).
  const stats =
    dynamodbUrl &&
    (await fetch(`${dynamodbUrl}/_local/stats`)
      .then((r) => r.json())
      .catch(() => undefined));
  if (stats) {
    const requests = Object.values(stats.requests as Record<string, number>).reduce((a, b) => a + b, 0);
    console.log(
      `DynamoDB: ${requests} requests, ${stats.transactionConflicts} transaction conflicts ${JSON.stringify(stats.requests)}`,
    );
  }
  // Cold starts are most of what a burst of parallel requests costs on this machine.
  const functions = Object.values((await stack?.functionStats().catch(() => undefined)) ?? {});
  if (functions.length) {
    const initMs = functions.flatMap((f) => f.initMs).reduce((a, b) => a + b, 0);
    const starts = functions.reduce((n, f) => n + f.environments, 0);
    // More cold starts than functions: environments started for parallel invocations (warmWaitMs: 0).
    console.log(
      `Functions: ${starts} cold starts of ${functions.length} functions, ${(initMs / 1000).toFixed(1)} s initialising`,
    );
  }
  await stack?.stop();
  stopCapture?.();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file with everything the product logged (test/support/captured-log.ts). */
    productLog: string;
  }
}
