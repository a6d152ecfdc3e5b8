import { fileURLToPath } from 'node:url';

/** Repository root; entry points and outputs of the benchmarks are resolved against it. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Bundles (git-ignored); inside the repository so that external packages resolve from node_modules. */
export const buildDir = fileURLToPath(new URL('../.build/', import.meta.url));

/** Committed results, one JSON file per benchmark. */
export const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
