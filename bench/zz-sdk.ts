import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { fallbackRoute, httpRoutes, originAuthorizer, socketRoutes } from '../functions/routes';
import { esbuildOptions, handlerAliases, handlerEntry } from '../infra/bundling';
import { measureImportTimes, median } from './lib/import-time';
import { repoRoot } from './lib/paths';

const out = '/tmp/alarms-scratch/sdk';
const handlers = [...new Set([...httpRoutes, ...socketRoutes, fallbackRoute, originAuthorizer].map((r) => r.handler))];
async function bundle(entry: string, outfile: string, external: string[], alias: Record<string, string> = {}) {
  await build({
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    external,
    alias,
    entryPoints: [entry],
    outfile,
    absWorkingDir: repoRoot,
    logLevel: 'error',
  });
  return (await stat(outfile)).size;
}
const rows: { handler: string; ext: number; bundled: number }[] = [];
for (const h of handlers) {
  const ext = await bundle(handlerEntry(h), join(out, 'ext', `${h}.mjs`), ['@aws-sdk/*'], handlerAliases(h));
  const bundled = await bundle(handlerEntry(h), join(out, 'bundled', `${h}.mjs`), [], handlerAliases(h));
  rows.push({ handler: h, ext, bundled });
}
await bundle('bench/baseline.ts', join(out, 'ext', 'baseline.mjs'), ['@aws-sdk/*']);
await bundle('bench/baseline.ts', join(out, 'bundled', 'baseline.mjs'), []);
const kb = (n: number) => (n / 1024).toFixed(1);
const over = rows.filter((r) => r.bundled > 350 * 1024);
console.log('max ext KB', kb(Math.max(...rows.map((r) => r.ext))), 'max bundled KB', kb(Math.max(...rows.map((r) => r.bundled))));
console.log('median ext KB', kb(median(rows.map((r) => r.ext))), 'median bundled KB', kb(median(rows.map((r) => r.bundled))));
console.log(
  'over 350 KB bundled:',
  over.length,
  'of',
  rows.length,
  over
    .slice(0, 8)
    .map((r) => `${r.handler}=${kb(r.bundled)}`)
    .join(' '),
);
const sample = [
  'conversations/send-message',
  'auth/login',
  'realtime/connect',
  'webhooks/inbound-sms',
  'conversations/create-picture-upload',
];
const files = [
  join(out, 'ext', 'baseline.mjs'),
  join(out, 'bundled', 'baseline.mjs'),
  ...sample.flatMap((h) => [join(out, 'ext', `${h}.mjs`), join(out, 'bundled', `${h}.mjs`)]),
];
const samples = await measureImportTimes(files, 5, { AWS_REGION: 'us-east-1', TABLE_NAME: 'bench-table' });
files.forEach((f, i) => console.log(f.replace(out, ''), median(samples[i] ?? []).toFixed(1), 'ms'));
