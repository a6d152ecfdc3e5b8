import type { TestProject } from 'vitest/node';
import { handOffStack, type StackHandOff } from './stack-handoff';
import { startTestStack, type TestStack } from './test-stack';

let handOff: StackHandOff<TestStack> | undefined;

/**
 * The bundled project's own stack (vitest.config.ts): every function runs from exactly the bundle
 * `cdk deploy` uploads (SWITCHBOARD_HANDLERS=bundled, local/function-bundles.ts), so an ESM/CommonJS
 * or dynamic-import problem of the deployed code fails here. Handed to the tests when it answers.
 */
export function setup(project: TestProject) {
  handOff = handOffStack(project, 'bundled', () =>
    startTestStack({ web: false, label: 'bundled', twilioMessageStepMs: 20, handlers: 'bundled' }),
  );
}

export async function teardown() {
  const stack = await handOff?.started;
  await handOff?.forget();
  await stack?.stop();
}
