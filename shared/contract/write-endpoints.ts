/**
 * Writes shared/contract/endpoints.ts: every HTTP contract's method, path and auth as plain data,
 * typed by the contract (`import type`), so the web app reaches a route without loading zod.
 * Run `npx tsx shared/contract/write-endpoints.ts` after adding or changing a contract;
 * endpoints.test.ts fails while the file is stale.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HttpContract } from './route';

const dir = import.meta.dirname;
export const endpointsFile = join(dir, 'endpoints.ts');

/** The contract modules: every module here but the route helpers, this script and what it writes. */
function contractModules(): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .filter((m) => !['route', 'endpoints', 'write-endpoints'].includes(m))
    .sort();
}

const isHttpContract = (value: unknown): value is HttpContract =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'http';

export async function endpointsSource(): Promise<string> {
  const imports: string[] = [];
  const entries: string[] = [];
  for (const module of contractModules()) {
    const exports = await import(pathToFileURL(join(dir, `${module}.ts`)).href);
    const contracts = Object.entries(exports as Record<string, unknown>)
      .filter((entry): entry is [string, HttpContract] => isHttpContract(entry[1]))
      .sort(([a], [b]) => a.localeCompare(b));
    if (contracts.length === 0) continue;
    imports.push(`import type * as ${camel(module)} from './${module}';`);
    for (const [name, c] of contracts) {
      entries.push(
        [
          `export const ${name}: Endpoint<typeof ${camel(module)}.${name}> = {`,
          `  method: '${c.method}',`,
          `  path: '${c.path}',`,
          `  auth: '${c.auth}',`,
          '};',
        ].join('\n'),
      );
    }
  }
  return [
    '// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.',
    '/** Every HTTP contract without its schemas (route.ts, Endpoint): what the web app calls routes by. */',
    // Sorted by module, as the formatter orders imports.
    ...[...imports, "import type { Endpoint } from './route';"].sort((a, b) => moduleOf(a).localeCompare(moduleOf(b))),
    '',
    entries.join('\n\n'),
    '',
  ].join('\n');
}

const moduleOf = (line: string) => line.slice(line.lastIndexOf("'./"));
const camel = (module: string) => module.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(endpointsFile, await endpointsSource());
  console.log(`Wrote ${endpointsFile}`);
}
