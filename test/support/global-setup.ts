import type { TestProject } from 'vitest/node';
import { type ProvidedStack, startTestStack } from './test-stack';

export const PLATFORM_ADMIN = 'admin@platform.test';

let stop: (() => Promise<void>) | undefined;

/** One real local stack for the integration project, on free ports, with an in-memory database. */
export async function setup(project: TestProject) {
  const stack = await startTestStack({ web: false, platformAdminEmails: PLATFORM_ADMIN, label: 'test' });
  stop = stack.stop;
  project.provide('stack', stack.provided);
}

export async function teardown() {
  await stop?.();
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: ProvidedStack;
  }
}
