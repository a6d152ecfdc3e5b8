import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from '../../functions/routes';
import { endpoints as testEndpoints } from '../../test/support/endpoints';
import type { Endpoint, HttpContract } from './route';
import { endpointSources, endpointsDir } from './write-endpoints';

const files = () => readdirSync(endpointsDir).sort();

describe('endpoints/', () => {
  it('is what write-endpoints.ts writes from the contracts now (else: npx tsx shared/contract/write-endpoints.ts)', async () => {
    const written = await endpointSources();
    expect(files()).toEqual([...written.keys()].sort());
    for (const [name, text] of written) expect(readFileSync(join(endpointsDir, name), 'utf8'), name).toBe(text);
  });

  it("names every routed HTTP contract, with the contract's method, path and auth", async () => {
    const endpoints: Endpoint<HttpContract>[] = [];
    for (const name of files()) {
      endpoints.push(...(Object.values(await import(pathToFileURL(join(endpointsDir, name)).href)) as Endpoint<HttpContract>[]));
    }
    const byPath = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e]));
    for (const { contract } of httpRoutes) {
      expect(byPath.get(`${contract.method} ${contract.path}`), contract.path).toEqual({
        method: contract.method,
        path: contract.path,
        auth: contract.auth,
        ...(contract.roles ? { roles: contract.roles } : {}),
      });
    }
    expect(byPath.size).toBe(httpRoutes.length);
    // The tests' index of them (test/support/endpoints.ts) holds every one.
    expect(new Set(Object.values(testEndpoints))).toEqual(new Set(endpoints));
  });

  it('loads nothing, zod least: the web app imports them on every page', () => {
    for (const name of files())
      expect(readFileSync(join(endpointsDir, name), 'utf8').match(/^import (?!type ).*$/gm), name).toBeNull();
  });
});

describe('the web app', () => {
  const webSrc = join(import.meta.dirname, '../../web/src');
  const sources = (readdirSync(webSrc, { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => ({ file: f, text: readFileSync(join(webSrc, f), 'utf8') }));

  it('calls routes only by their endpoints: no hand-written path or answer type', () => {
    expect(sources.length).toBeGreaterThan(50);
    const raw = sources.filter(({ text }) => /\bapi\.(get|post|request)\s*[<(]/.test(text)).map((s) => s.file);
    expect(raw).toEqual([]);
  });
});
