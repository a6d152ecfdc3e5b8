import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from '../../functions/routes';
import * as endpoints from './endpoints';
import { fillPath } from './route';
import { endpointsFile, endpointsSource } from './write-endpoints';

describe('endpoints.ts', () => {
  it('is what write-endpoints.ts writes from the contracts now (else: npx tsx shared/contract/write-endpoints.ts)', async () => {
    expect(readFileSync(endpointsFile, 'utf8')).toBe(await endpointsSource());
  });

  it("names every routed HTTP contract, with the contract's method, path and auth", () => {
    const byPath = new Map(Object.values(endpoints).map((e) => [`${e.method} ${e.path}`, e]));
    for (const { contract } of httpRoutes) {
      expect(byPath.get(`${contract.method} ${contract.path}`), contract.path).toEqual({
        method: contract.method,
        path: contract.path,
        auth: contract.auth,
      });
    }
    expect(byPath.size).toBe(httpRoutes.length);
  });

  it('loads no schema library: the web app imports it on every page', () => {
    const source = readFileSync(endpointsFile, 'utf8');
    expect(source.match(/^import (?!type ).*$/gm)).toBeNull();
  });
});

describe('fillPath', () => {
  it('fills each {param}, URL-encoded', () => {
    expect(fillPath('/api/v1/conversations/{id}/messages/{messageId}/retry', { id: 'a/b c', messageId: 'm?1' })).toBe(
      '/api/v1/conversations/a%2Fb%20c/messages/m%3F1/retry',
    );
    expect(fillPath('/api/v1/contacts', {})).toBe('/api/v1/contacts');
  });

  it('refuses a path whose parameter has no value', () => {
    expect(() => fillPath('/api/v1/contacts/{id}', {} as { id: string })).toThrow('no value for {id}');
  });
});
