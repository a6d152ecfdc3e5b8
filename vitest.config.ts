import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** The product's modules whose tests run against a stand-in: DynamoDB Local, an HTTP server, esbuild. */
const AGAINST_STAND_INS = [
  'functions/lib/batch-get.test.ts',
  'functions/lib/db-conflicts.test.ts',
  'functions/lib/table-access.test.ts',
  'functions/lib/config.test.ts',
  'functions/auth/access-tokens.test.ts',
  'functions/handlers/system/origin-authorizer.test.ts',
  'functions/twilio/rest-client.test.ts',
];

/**
 * The import aliases (`@shared/*`, `@/*` for web/src, …) are tsconfig.json's `paths`, declared there once;
 * the global setups and each project resolve them (an inline project does not inherit the root's `resolve`).
 */
const resolve = { tsconfigPaths: true };

/**
 * Files share their worker's modules (`isolate: false`): importing React and jsdom, the AWS SDK or the
 * CDK once a worker rather than once a file saves about a third of the suite's CPU (docs/testing.md:
 * The run). A file that replaces a module (`vi.mock`) would leave the replacement to the files after it,
 * so such files run isolated, in `<project>:own-modules`. A file that imports the product's modules after
 * setting the environment their module-scope clients read calls `vi.resetModules()` first.
 */
const REPLACES_MODULES = /\bvi\.(mock|doMock)\(/;
const TEST_FILE = /\.test\.tsx?$/;
const testFilesReplacingModules = ['functions', 'shared', 'bench', 'test', 'local', 'packages', 'infra', 'web'].flatMap(
  (folder) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.replaceAll('\\', '/')}`)
      .filter((file) => TEST_FILE.test(file) && !file.includes('node_modules/'))
      .filter((file) => REPLACES_MODULES.test(readFileSync(file, 'utf8'))),
);

/** Whether a path matches an include glob here; they use only `**`, `*` and `{a,b}`. */
const matchesGlob = (file: string, glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^$()|[\]\\]/g, '\\$&')
      .replace(/\{([^}]*)\}/g, (_, options: string) => `(${options.split(',').join('|')})`)
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replaceAll('\u0000', '(.*/)?')}$`,
  ).test(file);

type NamedProject = TestProjectInlineConfiguration & { test: { name: string } };
const replacingModulesIn = (project: NamedProject) =>
  testFilesReplacingModules.filter(
    (file) =>
      (project.test.include ?? []).some((glob) => matchesGlob(file, glob)) &&
      // Unit's exclusions beyond the defaults are files by name (AGAINST_STAND_INS).
      !(project.test.exclude ?? []).includes(file),
  );

/** A project without a stack: its files share modules, and those that replace one run isolated beside it. */
function sharingModules(project: NamedProject): TestProjectInlineConfiguration[] {
  const own = replacingModulesIn(project);
  const shared = {
    ...project,
    test: { ...project.test, isolate: false, exclude: [...(project.test.exclude ?? configDefaults.exclude), ...own] },
  };
  if (own.length === 0) return [shared];
  return [
    shared,
    {
      ...project,
      test: { ...project.test, name: `${project.test.name}:own-modules`, include: own, exclude: configDefaults.exclude },
    },
  ];
}

/** A project with a stack of its own: a second, isolated project would start a second stack, so none of its files may replace a module. */
function sharingModulesWithStack(project: NamedProject): TestProjectInlineConfiguration {
  const own = replacingModulesIn(project);
  if (own.length > 0)
    throw new Error(`${own.join(', ')}: vi.mock in the ${project.test.name} project, whose files share their modules`);
  return { ...project, test: { ...project.test, isolate: false } };
}

/**
 * Projects (docs/testing.md): `unit` runs the product's modules alone, in seconds: no port, no
 * process, no CDK synth (test/support/unit-guard.ts refuses the first two), and checks the documents'
 * citations and links (test/docs); `stand-ins` runs the local stand-ins' own tests (local/: DynamoDB
 * Local, its proxy, the gateway, function environments; the Twilio emulator's package), the CDK app's
 * synth tests (infra/), and the product's modules that are tested against a stand-in
 * (AGAINST_STAND_INS), with one DynamoDB Local for the project, each file in tables of its own
 * (test/support/stand-ins-setup.ts); `integration` shares one local stack (DynamoDB Local, the SES
 * emulator and the gateway on free ports), handed to its files when it answers
 * (test/support/stack-handoff.ts), with the parallel writers on one conversation (test/load) among
 * them; `web` runs the SPA's component tests in jsdom; `browser` drives the web app in Debian's
 * Chromium against a stack of its own with the web app built as for CloudFront (local/web.ts), one
 * file at a time; `bundled` runs a smoke set against exactly the bundles `cdk deploy` uploads
 * (SWITCHBOARD_HANDLERS=bundled), on a stack of its own. `npm test` (test/run.ts) runs the browser
 * project in a lane of its own beside the others. `peak` (a busy company's rate of texts, a goal of
 * the machine as much as of the product) is a benchmark: `npm run bench` runs it, `npm test` does not.
 */
export default defineConfig({
  resolve,
  test: {
    // Node 20 here, Node 22 in Lambda: the SDK's upgrade notice is noise in test output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    reporters: ['default', './test/support/summary-reporter.ts'],
    // One file per core: vitest's default leaves one core idle, and test files wait on stacks as much as they compute.
    maxWorkers: availableParallelism(),
    projects: [
      ...sharingModules({
        resolve,
        test: {
          name: 'unit',
          include: ['functions/**/*.test.ts', 'shared/**/*.test.ts', 'bench/**/*.test.ts', 'test/docs/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...AGAINST_STAND_INS],
          setupFiles: ['test/support/unit-guard.ts'],
          testTimeout: 120_000,
        },
      }),
      sharingModulesWithStack({
        resolve,
        test: {
          name: 'stand-ins',
          include: [
            'local/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'infra/**/*.test.ts',
            ...AGAINST_STAND_INS,
          ],
          globalSetup: ['test/support/stand-ins-setup.ts'],
          testTimeout: 120_000,
          // A bound, not a goal: hooks start stand-ins (gateways, function environments, the emulator), several times slower on a busy machine.
          hookTimeout: 60_000,
        },
      }),
      sharingModulesWithStack({
        resolve,
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
      }),
      ...sharingModules({
        resolve,
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/test-setup.ts'],
          // A bound, not a goal: vitest's 5 s default is shorter than findBy's wait on a busy machine.
          testTimeout: 30_000,
        },
      }),
      sharingModulesWithStack({
        resolve,
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
      }),
      {
        resolve,
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
        resolve,
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
