import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fallbackRoute, httpRoutes, matchPath, socketRoutes } from './routes';

const handlersDir = join(import.meta.dirname, 'handlers');

function handlerModules(dir = handlersDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return handlerModules(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return [relative(handlersDir, path).replace(/\.ts$/, '')];
  });
}

const tableEntries = [...httpRoutes.map((r) => r.handler), ...socketRoutes.map((r) => r.handler), fallbackRoute.handler];

describe('the route table', () => {
  it('gives every entry a handler module that exports `handler`', async () => {
    for (const name of tableEntries) {
      const module = await import(/* @vite-ignore */ pathToFileURL(join(handlersDir, `${name}.ts`)).href);
      expect(typeof module.handler, name).toBe('function');
    }
  });

  it('lists every handler module', () => {
    expect(handlerModules().sort()).toEqual([...new Set(tableEntries)].sort());
  });

  it('has one entry per method and path, and one per socket route', () => {
    const keys = httpRoutes.map((r) => `${r.contract.method} ${r.contract.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(socketRoutes.map((r) => r.contract.routeKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
    for (const r of httpRoutes) expect(r.contract.path).toMatch(/^\/(api\/v1|webhooks)\//);
  });
});

describe('matchPath', () => {
  it('matches literal segments and captures parameters', () => {
    expect(matchPath('/api/v1/contacts/{id}', '/api/v1/contacts/abc%20d')).toEqual({ id: 'abc d' });
    expect(matchPath('/api/v1/contacts', '/api/v1/contacts')).toEqual({});
    expect(matchPath('/api/v1/contacts/{id}', '/api/v1/contacts/')).toBeUndefined();
    expect(matchPath('/api/v1/contacts/{id}', '/api/v1/contacts/a/b')).toBeUndefined();
    expect(matchPath('/api/v1/contacts', '/api/v1/calls')).toBeUndefined();
  });
});
