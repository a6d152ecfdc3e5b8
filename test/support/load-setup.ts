import type { TestProject } from 'vitest/node';
import { startTestStack } from './test-stack';

let stop: (() => Promise<void>) | undefined;

/**
 * The load project's own stack (vitest.config.ts): started when the other projects are done, so a
 * busy company's peak meets only itself. Its product log is not captured (the integration project's
 * capture is the console's until the run ends).
 */
export async function setup(project: TestProject) {
  const stack = await startTestStack({ web: false, label: 'load', twilioMessageStepMs: 20 });
  stop = stack.stop;
  project.provide('stack', stack.provided);
}

export async function teardown() {
  await stop?.();
}
