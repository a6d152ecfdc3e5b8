import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Projects (docs/testing.md): `unit` runs in isolation; `integration` shares one local stack (DynamoDB
 * Local, the SES emulator and the gateway on free ports), handed to its files when it answers
 * (test/support/stack-handoff.ts), with the parallel writers on one conversation (test/load) among
 * them; `web` runs the SPA's component tests in jsdom; `browser` drives the web app in Debian's
 * Chromium against a stack of its own with the web app built as for CloudFront (local/web.ts), one
 * file at a time; `bundled` runs a smoke set against exactly the bundles `cdk deploy` uploads
 * (SWITCHBOARD_HANDLERS=bundled), on a stack of its own. `npm test` (test/run.ts) runs the browser
 * project in a lane of its own beside the others. `peak` (a busy company's rate of texts, a goal of
 * the machine as much as of the product) is a benchmark: `npm run bench` runs it, `npm test` does not.
 */
export default defineConfig({
  test: {
    // Node 20 here, Node 22 in Lambda: the SDK's upgrade notice is noise in test output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    reporters: ['default', './test/support/summary-reporter.ts'],
    // One file per core: vitest's default leaves one core idle, and test files wait on stacks as much as they compute.
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'functions/**/*.test.ts',
            'shared/**/*.test.ts',
            'infra/**/*.test.ts',
            'local/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          testTimeout: 120_000,
          // A bound, not a goal: DynamoDB Local's JVM took over vitest's 10 s default to start on a busy machine.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/load/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/stack-ready.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // expect.poll waits for what the stack does; vitest's 1 s default fails on a busy machine.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/test-setup.ts'],
          // A bound, not a goal: vitest's 5 s default is shorter than findBy's wait on a busy machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/browser-setup.ts'],
          setupFiles: ['test/support/stack-ready.ts'],
          // Bounds, not goals: a journey of many screens takes several times longer on a busy machine.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // As long as Playwright's own waits (30 s): vitest's 1 s default fails on a busy machine.
          expect: { poll: { timeout: 30_000 } },
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'bundled',
          include: ['test/bundled/**/*.test.ts'],
          globalSetup: ['test/support/bundled-setup.ts'],
          setupFiles: ['test/support/stack-ready.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll: { timeout: 15_000 } },
          sequence: { groupOrder: 3 },
        },
      },
      {
        test: {
          name: 'peak',
          include: ['test/peak/**/*.test.ts'],
          globalSetup: ['test/support/load-setup.ts'],
          setupFiles: ['test/support/stack-ready.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
