import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { httpContract } from '../shared/contract/route';
import { buildFunctionBundles, bundlesDir, cachedFunctionBundles, type FunctionBundling } from './function-bundles';
import { createGateway } from './gateway';
import { quietLogger } from './log';
import { freePort } from './ports';

/**
 * `SWITCHBOARD_HANDLERS=bundled` runs exactly what `cdk deploy` uploads (infra/bundling.ts); the default
 * local bundles differ on purpose in three ways (local/function-bundles.ts). Both built here from the
 * fixture functions of local/fixtures/functions.
 */
const entryOf = (handler: string) => `local/fixtures/functions/${handler}.ts`;
const REPO = join(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function built(bundling: FunctionBundling) {
  const outDir = bundlesDir(bundling);
  dirs.push(outDir);
  const bundles = await buildFunctionBundles({ handlers: ['first', 'sdk-client'], entryOf, outDir, bundling });
  const file = fileURLToPath(bundles.bundleOf('sdk-client'));
  const dir = join(file, '..');
  return {
    file,
    code: readFileSync(file, 'utf8'),
    modules: readdirSync(dir)
      .filter((f) => f.endsWith('.mjs'))
      .sort(),
  };
}

describe('function bundles', () => {
  it('deployed: one minified file per function, the AWS SDK left for the runtime to provide', async () => {
    const { file, code, modules } = await built('deployed');
    expect(modules).toEqual(['first.mjs', 'sdk-client.mjs']);
    expect(code).toMatch(/import\(\s*"@aws-sdk\/client-dynamodb"\s*\)/);
    // Minified: no module comments, one line of code.
    expect(code).not.toContain('// local/fixtures/functions/sdk-client.ts');
    expect(code.trim().split('\n').length).toBeLessThan(5);
    // Under the repository's node_modules, where the runtime-provided SDK resolves.
    expect(file).toContain(join('node_modules', '.cache', 'switchboard-functions-'));
  });

  it('local: the SDK inside, readable, shared chunks', async () => {
    const { code, modules } = await built('local');
    expect(code).not.toMatch(/import\(\s*"@aws-sdk\/client-dynamodb"\s*\)/);
    expect(code).toContain('// local/fixtures/functions/sdk-client.ts');
    expect(modules.some((m) => m.startsWith('chunk-'))).toBe(true);
  });

  it('a cached build is reused while its sources are unchanged, and built again when one changes', async () => {
    // A function of this test's own, so that changing its source touches no other test's build.
    const folder = `node_modules/.cache/switchboard-bundles-test-${process.pid}-${Date.now()}`;
    mkdirSync(join(REPO, folder), { recursive: true });
    dirs.push(join(REPO, folder));
    const source = (answer: string) =>
      writeFileSync(join(REPO, folder, 'answer.ts'), `export const handler = async () => ${JSON.stringify(answer)};\n`);
    const options = { handlers: ['answer'], entryOf: () => `${folder}/answer.ts` };
    const answer = async (bundles: { bundleOf: (handler: string) => string }) =>
      (await import(bundles.bundleOf('answer'))).handler();

    source('first');
    const first = await cachedFunctionBundles(options);
    const again = await cachedFunctionBundles(options);
    expect(again.bundleOf('answer')).toBe(first.bundleOf('answer'));
    expect(await answer(again)).toBe('first');

    source('second');
    const changed = await cachedFunctionBundles(options);
    expect(changed.bundleOf('answer')).not.toBe(first.bundleOf('answer'));
    expect(await answer(changed)).toBe('second');
  });

  it('the gateway serves a route from its deployed bundle, whose SDK import resolves', async () => {
    const port = await freePort();
    const gateway = createGateway({
      log: quietLogger,
      environment: {},
      bundling: 'deployed',
      routes: {
        http: [
          {
            contract: httpContract({ method: 'GET', path: '/sdk', auth: 'public' }),
            handler: 'sdk-client',
            table: 'none',
            capabilities: [],
          },
        ],
        socket: [],
        fallback: { handler: 'first', table: 'none', capabilities: [] },
      },
      entryOf,
    });
    await gateway.listen(port);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/sdk`);
      const body = (await res.json()) as { client: string; bundle: string };
      expect(res.status).toBe(200);
      expect(body.client).toBe('DynamoDBClient');
      expect(body.bundle).toContain('/node_modules/.cache/switchboard-functions/');
    } finally {
      await gateway.close();
    }
  });
});
