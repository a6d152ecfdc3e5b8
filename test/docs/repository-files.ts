import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where test/docs/ reads every file from: files only, no process. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Directories of what is installed or built, never written by hand (.gitignore). */
const NOT_SOURCES = new Set(['node_modules', 'cdk.out', 'dist', 'coverage', 'test-results', '.git', '.local', '.build']);

/** Every file written by hand under `dir` (repository-relative, '' for all), as repository-relative paths. */
export function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory() && !NOT_SOURCES.has(entry.name)) filesUnder(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}
