import type { TestProject } from 'vitest/node';
import { startTestStack } from './test-stack';

let stop: (() => Promise<void>) | undefined;

/**
 * The bundled project's own stack (vitest.config.ts): every function runs from exactly the bundle
 * `cdk deploy` uploads (SWITCHBOARD_HANDLERS=bundled, local/function-bundles.ts), so an ESM/CommonJS
 * or dynamic-import problem of the deployed code fails here.
 */
export async function setup(project: TestProject) {
  const stack = await startTestStack({ web: false, label: 'bundled', twilioMessageStepMs: 20, handlers: 'bundled' });
  stop = stack.stop;
  project.provide('stack', stack.provided);
}

export async function teardown() {
  await stop?.();
}
