import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';
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

/** Where one build put each bundle, and every source file it read (relative to the repository). */
interface BuildRecord {
  files: Record<string, string>;
  runtime: string;
  inputs: string[];
}

/** What the local build changes in the deployed settings (buildFunctionBundles). */
const LOCAL_BUILD = { minify: false, sourcesContent: false } as const;

/**
 * Bundles every function as the stack deploys it (infra/bundling.ts: esbuild, ESM, its aliases), so
 * that an environment loads one function's code and nothing else, with its own copy of every module.
 * Locally the AWS SDK is bundled too (Lambda's runtime provides it; here loading it from node_modules
 * made a cold start about twice as slow), the code is not minified (readable stack traces), and the
 * functions share chunks (splitting), which keeps one build of all of them to a few seconds. Their
 * source maps leave out the sources' text (`sourcesContent`): an environment's runtime reads and
 * parses every map of the chunks it loads (local/function-runtime.ts maps stack traces), and the text,
 * half of the maps' 5.7 MB, is not needed to name a file and line; a debugger opens the files
 * the map names.
 * Functions with aliases get a build of their own, as their aliases differ from the others'.
 */
export async function buildFunctionBundles(options: {
  handlers: readonly string[];
  /** A handler's source file, relative to the repository root. */
  entryOf: (handler: string) => string;
  outDir: string;
  bundling?: FunctionBundling;
}): Promise<FunctionBundles> {
  return bundlesOf(await buildAll(options.handlers, options.entryOf, options.outDir, options.bundling ?? 'local'));
}

async function buildAll(
  handlers: readonly string[],
  entryOf: (handler: string) => string,
  outDir: string,
  bundling: FunctionBundling,
): Promise<BuildRecord> {
  const groups = new Map<string, { alias: Record<string, string>; handlers: string[] }>();
  for (const handler of handlers) {
    const alias = handlerAliases(handler);
    const key = JSON.stringify(alias);
    const group = groups.get(key) ?? { alias, handlers: [] };
    group.handlers.push(handler);
    groups.set(key, group);
  }
  const files: Record<string, string> = {};
  const runtimeDir = join(outDir, 'runtime');
  const inputs = await Promise.all([
    bundle({ [RUNTIME]: 'local/function-runtime.ts' }, {}, runtimeDir, 'local'),
    ...[...groups.values()].map((group, i) => {
      const dir = join(outDir, `functions-${i}`);
      for (const handler of group.handlers) files[handler] = join(dir, `${handler}.mjs`);
      return bundle(Object.fromEntries(group.handlers.map((h) => [h, entryOf(h)])), group.alias, dir, bundling);
    }),
  ]);
  return { files, runtime: join(runtimeDir, `${RUNTIME}.mjs`), inputs: [...new Set(inputs.flat())].sort() };
}

function bundlesOf(record: Pick<BuildRecord, 'files' | 'runtime'>): FunctionBundles {
  return {
    bundleOf: (handler) => {
      const file = record.files[handler];
      if (!file) throw new Error(`No bundle for function ${handler}`);
      return pathToFileURL(file).href;
    },
    runtime: pathToFileURL(record.runtime).href,
  };
}

const CACHE_ROOT = join(REPO_ROOT, 'node_modules', '.cache', 'switchboard-functions');
/** A cached build unused this long is removed when another is made (`npm start` touches its own at start). */
const CACHE_KEEP_MS = 2 * 24 * 60 * 60 * 1000;

/** One digest of the sources a build read: their paths and contents. */
function digestOf(inputs: readonly string[]): string | undefined {
  const hash = createHash('sha256');
  for (const input of inputs) {
    const file = join(REPO_ROOT, input);
    if (!existsSync(file)) return undefined;
    hash.update(input).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * The bundles of these functions, built once per content: every stack of a test run (and `npm start`)
 * starts from the same build while no source it read has changed. A build records the files esbuild
 * read (its metafile) and their digest; a later call with the same functions and settings reuses it
 * if the digest still holds, else builds anew. Cached builds live under node_modules/.cache, where
 * deployed bundles' runtime-provided imports resolve, and are never changed once written: two
 * processes building at once each write their own folder, and the record names the last.
 */
export async function cachedFunctionBundles(options: {
  handlers: readonly string[];
  entryOf: (handler: string) => string;
  bundling?: FunctionBundling;
}): Promise<FunctionBundles> {
  const bundling = options.bundling ?? 'local';
  const handlers = [...options.handlers].sort();
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        handlers,
        entries: handlers.map(options.entryOf),
        bundling,
        // The local build's own settings: a build made with others is not reused.
        local: bundling === 'local' ? LOCAL_BUILD : undefined,
        esbuildVersion,
        node: process.version,
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const dir = join(CACHE_ROOT, key);
  const recordFile = join(dir, 'build.json');
  mkdirSync(dir, { recursive: true });
  const cached = existsSync(recordFile)
    ? (JSON.parse(readFileSync(recordFile, 'utf8')) as BuildRecord & { digest: string })
    : undefined;
  if (cached && existsSync(cached.runtime) && digestOf(cached.inputs) === cached.digest) {
    const now = new Date();
    utimesSync(join(cached.runtime, '..', '..'), now, now);
    return bundlesOf(cached);
  }
  const outDir = mkdtempSync(join(dir, 'build-'));
  const record = await buildAll(handlers, options.entryOf, outDir, bundling);
  const digest = digestOf(record.inputs);
  if (digest) {
    const temporary = `${recordFile}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify({ ...record, digest }));
    renameSync(temporary, recordFile);
  }
  pruneCache(dir, outDir);
  return bundlesOf(record);
}

/** Removes the cached builds of this key that nothing has used for CACHE_KEEP_MS. */
function pruneCache(dir: string, keep: string) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (!entry.startsWith('build-') || path === keep) continue;
    if (Date.now() - statSync(path).mtimeMs > CACHE_KEEP_MS) rmSync(path, { recursive: true, force: true });
  }
}

async function bundle(
  entryPoints: Record<string, string>,
  alias: Record<string, string>,
  outdir: string,
  bundling: FunctionBundling,
): Promise<string[]> {
  const where = {
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: REPO_ROOT,
    logLevel: 'silent',
    metafile: true,
  } as const;
  // What the build read, for the cache (node_modules included: a dependency's upgrade is a change too).
  const inputsOf = (result: { metafile: { inputs: Record<string, unknown> } }) =>
    Object.keys(result.metafile.inputs).map((input) => relative(REPO_ROOT, join(REPO_ROOT, input)));
  if (bundling === 'deployed') {
    // As deployed, nothing changed: each entry point its own file (no shared chunks without splitting).
    return inputsOf(
      await build({
        ...esbuildOptions,
        mainFields: [...esbuildOptions.mainFields],
        external: [...esbuildOptions.external],
        alias,
        ...where,
      }),
    );
  }
  return inputsOf(
    await build({
      ...esbuildOptions,
      mainFields: [...esbuildOptions.mainFields],
      external: [],
      alias,
      ...LOCAL_BUILD,
      splitting: true,
      target: `node${process.versions.node.split('.')[0]}`,
      ...where,
    }),
  );
}
