/**
 * Writes shared/contract/endpoints/<module>.ts for each contract module: every HTTP contract's method,
 * path and auth as plain data, typed by the contract (`import type`), so the web app reaches a route
 * without loading zod. One file per module, so a page's chunk carries the endpoints of its own routes
 * only, and /login's first visit none it does not call.
 * Run `npx tsx shared/contract/write-endpoints.ts` after adding or changing a contract;
 * endpoints.test.ts fails while a file is stale.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HttpContract } from './route';

const dir = import.meta.dirname;
export const endpointsDir = join(dir, 'endpoints');

/** The contract modules: every module here but the route helpers, this script and what it writes. */
function contractModules(): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .filter((m) => !['route', 'write-endpoints'].includes(m))
    .sort();
}

const isHttpContract = (value: unknown): value is HttpContract =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'http';

/** Each endpoint file's name and text, for the modules that have HTTP contracts. */
export async function endpointSources(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const module of contractModules()) {
    const exports = await import(pathToFileURL(join(dir, `${module}.ts`)).href);
    const contracts = Object.entries(exports as Record<string, unknown>)
      .filter((entry): entry is [string, HttpContract] => isHttpContract(entry[1]))
      .sort(([a], [b]) => a.localeCompare(b));
    if (contracts.length === 0) continue;
    const entries = contracts.map(([name, c]) =>
      [
        `export const ${name}: Endpoint<typeof contracts.${name}> = {`,
        `  method: '${c.method}',`,
        `  path: '${c.path}',`,
        `  auth: '${c.auth}',`,
        ...(c.roles ? [`  roles: [${c.roles.map((r) => `'${r}'`).join(', ')}],`] : []),
        '};',
      ].join('\n'),
    );
    files.set(
      `${module}.ts`,
      [
        '// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.',
        `/** The HTTP contracts of ${module}.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */`,
        // In the formatter's order: by module path.
        ...[`import type * as contracts from '../${module}';`, "import type { Endpoint } from '../route';"].sort((x, y) =>
          x.slice(x.indexOf("'")).localeCompare(y.slice(y.indexOf("'"))),
        ),
        '',
        entries.join('\n\n'),
        '',
      ].join('\n'),
    );
  }
  return files;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  rmSync(endpointsDir, { recursive: true, force: true });
  mkdirSync(endpointsDir);
  for (const [name, text] of await endpointSources()) writeFileSync(join(endpointsDir, name), text);
  console.log(`Wrote ${endpointsDir}`);
}
