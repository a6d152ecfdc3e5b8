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
