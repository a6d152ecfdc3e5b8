/**
 * esbuild settings of every function, shared by the CDK stack (NodejsFunction) and `npm run bench`,
 * so the benchmark measures exactly what is deployed. The AWS SDK v3 is provided by the Lambda
 * Node.js runtime and stays external, as CDK does by default.
 */
export const LAMBDA_NODE_TARGET = 'node22';

export const EXTERNAL_MODULES = ['@aws-sdk/*'];

/** ESM output still meets CommonJS dependencies that call require(); this gives them one. */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: LAMBDA_NODE_TARGET,
  minify: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  external: EXTERNAL_MODULES,
  banner: { js: ESM_REQUIRE_BANNER },
} as const;

/** Where the function sources live, relative to the repository root. */
export const handlerEntry = (handler: string) => `functions/handlers/${handler}.ts`;

/**
 * Import paths one handler's bundle resolves elsewhere. The outbound-call webhook reads number types
 * (toll fraud, functions/voice/destination-policy.ts), which only libphonenumber's `max` metadata
 * knows; its other phone parsing (shared/phone-numbers.ts, `min`) is given the same `max` set, a
 * superset with the same API, so the bundle carries one metadata set, not both (403 KB
 * with both, over bench/handlers.ts's 350 KB budget; 322 KB with `max` alone).
 */
const HANDLER_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'webhooks/outbound-call': { 'libphonenumber-js/min': 'libphonenumber-js/max' },
};

export const handlerAliases = (handler: string): Record<string, string> => ({ ...HANDLER_ALIASES[handler] });

/** The same aliases as esbuild command-line arguments (CDK's `esbuildArgs`). */
export const handlerAliasArgs = (handler: string): Record<string, string> =>
  Object.fromEntries(Object.entries(handlerAliases(handler)).map(([from, to]) => [`--alias:${from}`, to]));
