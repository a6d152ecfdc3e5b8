import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions, handlerAliases } from '../infra/bundling';

const REPO_ROOT = join(import.meta.dirname, '..');
/** The runtime every environment starts with (local/function-runtime.ts), bundled beside the functions. */
const RUNTIME = '__runtime';

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
}): Promise<FunctionBundles> {
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
    bundle({ [RUNTIME]: 'local/function-runtime.ts' }, {}, runtimeDir),
    ...[...groups.values()].map((group, i) => {
      const dir = join(options.outDir, `functions-${i}`);
      for (const handler of group.handlers) where.set(handler, join(dir, `${handler}.mjs`));
      return bundle(Object.fromEntries(group.handlers.map((h) => [h, options.entryOf(h)])), group.alias, dir);
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

async function bundle(entryPoints: Record<string, string>, alias: Record<string, string>, outdir: string) {
  await build({
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    external: [],
    alias,
    minify: false,
    splitting: true,
    target: `node${process.versions.node.split('.')[0]}`,
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: REPO_ROOT,
    logLevel: 'silent',
  });
}
