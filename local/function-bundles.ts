import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions, handlerAliases } from '../infra/bundling';

const REPO_ROOT = join(import.meta.dirname, '..');
/** The runtime every environment starts with (local/function-runtime.ts), bundled beside the functions. */
const RUNTIME = '__runtime';

/**
 * `local` (the default): the deploy's settings with three local conveniences, below. `deployed`
 * (`SWITCHBOARD_HANDLERS=bundled`): exactly the bundles `cdk deploy` uploads (infra/bundling.ts:
 * minified, one file per function, the AWS SDK left out for the runtime to provide, Node 22 syntax),
 * so an ESM/CommonJS or dynamic-import problem shows here and not in AWS.
 */
export type FunctionBundling = 'local' | 'deployed';

/**
 * A new folder for one gateway's bundles. Deployed bundles import the AWS SDK as Lambda's runtime
 * provides it (from its own node_modules), so theirs sit under the repository's node_modules, where
 * those imports resolve; local bundles carry everything and go to the system's temporary folder.
 */
export function bundlesDir(bundling: FunctionBundling): string {
  if (bundling === 'local') return mkdtempSync(join(tmpdir(), 'switchboard-functions-'));
  const parent = join(REPO_ROOT, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, 'switchboard-functions-'));
}

export interface FunctionBundles {
  /** The file URL of a handler's bundle. */
  bundleOf: (handler: string) => string;
  /** The file URL of the runtime's bundle. */
  runtime: string;
}

/**
 * Bundles every function as the stack deploys it (infra/bundling.ts: esbuild, ESM, its aliases), so
 * that an environment loads one function's code and nothing else, with its own copy of every module.
 * Locally the AWS SDK is bundled too (Lambda's runtime provides it; here loading it from node_modules
 * made a cold start about twice as slow), the code is not minified (readable stack traces), and the
 * functions share chunks (splitting), which keeps one build of all of them to a few seconds.
 * Functions with aliases get a build of their own, as their aliases differ from the others'.
 */
export async function buildFunctionBundles(options: {
  handlers: readonly string[];
  /** A handler's source file, relative to the repository root. */
  entryOf: (handler: string) => string;
  outDir: string;
  bundling?: FunctionBundling;
}): Promise<FunctionBundles> {
  const bundling = options.bundling ?? 'local';
  const groups = new Map<string, { alias: Record<string, string>; handlers: string[] }>();
  for (const handler of options.handlers) {
    const alias = handlerAliases(handler);
    const key = JSON.stringify(alias);
    const group = groups.get(key) ?? { alias, handlers: [] };
    group.handlers.push(handler);
    groups.set(key, group);
  }
  const where = new Map<string, string>();
  const runtimeDir = join(options.outDir, 'runtime');
  await Promise.all([
    bundle({ [RUNTIME]: 'local/function-runtime.ts' }, {}, runtimeDir, 'local'),
    ...[...groups.values()].map((group, i) => {
      const dir = join(options.outDir, `functions-${i}`);
      for (const handler of group.handlers) where.set(handler, join(dir, `${handler}.mjs`));
      return bundle(Object.fromEntries(group.handlers.map((h) => [h, options.entryOf(h)])), group.alias, dir, bundling);
    }),
  ]);
  return {
    bundleOf: (handler) => {
      const file = where.get(handler);
      if (!file) throw new Error(`No bundle for function ${handler}`);
      return pathToFileURL(file).href;
    },
    runtime: pathToFileURL(join(runtimeDir, `${RUNTIME}.mjs`)).href,
  };
}

async function bundle(
  entryPoints: Record<string, string>,
  alias: Record<string, string>,
  outdir: string,
  bundling: FunctionBundling,
) {
  const where = {
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: REPO_ROOT,
    logLevel: 'silent',
  } as const;
  if (bundling === 'deployed') {
    // As deployed, nothing changed: each entry point its own file (no shared chunks without splitting).
    await build({
      ...esbuildOptions,
      mainFields: [...esbuildOptions.mainFields],
      external: [...esbuildOptions.external],
      alias,
      ...where,
    });
    return;
  }
  await build({
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    external: [],
    alias,
    minify: false,
    splitting: true,
    target: `node${process.versions.node.split('.')[0]}`,
    ...where,
  });
}
