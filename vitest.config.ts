import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` runs in isolation; `integration` shares one local stack (DynamoDB Local, the
 * SES emulator and the gateway on free ports) started by its global setup.
 */
export default defineConfig({
  test: {
    // Node 20 here, Node 22 in Lambda: the SDK's upgrade notice is noise in test output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['functions/**/*.test.ts', 'shared/**/*.test.ts', 'infra/**/*.test.ts', 'local/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
