import type { TestProject } from 'vitest/node';
import { handOffStack, type StackHandOff } from './stack-handoff';
import { startTestStack, type TestStack } from './test-stack';

let handOff: StackHandOff<TestStack> | undefined;

/**
 * The peak benchmark's own stack (vitest.config.ts, `npm run bench`): a busy company's rate of texts
 * meets only itself. Handed to the test when it answers (stack-handoff.ts).
 */
export function setup(project: TestProject) {
  handOff = handOffStack(project, 'peak', () => startTestStack({ web: false, label: 'load', twilioMessageStepMs: 20 }));
}

export async function teardown() {
  const stack = await handOff?.started;
  await handOff?.forget();
  await stack?.stop();
}
