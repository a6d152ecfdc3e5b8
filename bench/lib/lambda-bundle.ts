import { stat } from 'node:fs/promises';
import { build } from 'esbuild';
import { esbuildOptions } from '../../infra/bundling';
import { repoRoot } from './paths';

/** Bundles one entry exactly as the stack deploys a function; returns the size of the .mjs in bytes. */
export async function bundleLambda(entry: string, outfile: string, alias: Record<string, string> = {}): Promise<number> {
  await build({
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    external: [...esbuildOptions.external],
    alias,
    entryPoints: [entry],
    outfile,
    absWorkingDir: repoRoot,
    logLevel: 'warning',
  });
  return (await stat(outfile)).size;
}
