/**
 * `npm run bench`: bundles every function of the route table with the stack's esbuild settings and
 * checks each against the budgets: minified size, and median cold import time relative to a baseline
 * that only creates the DynamoDB document client. Writes bench/results/handlers.json; exits 1 when a
 * handler is over budget. `BENCH_RUNS=5 npm run bench` for a quick run.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fallbackRoute, httpRoutes, originAuthorizer, socketRoutes } from '../functions/routes';
import { handlerAliases, handlerEntry } from '../infra/bundling';
import { measureImportTimes, median } from './lib/import-time';
import { bundleLambda } from './lib/lambda-bundle';
import { buildDir, resultsDir } from './lib/paths';
import { printTable, round, writeJson } from './lib/report';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const MAX_KB = 350; // minified .mjs, KB = 1024 bytes
const MAX_IMPORT_RATIO = 1.3; // median import time / the baseline's
const CHILD_ENV = { AWS_REGION: 'us-east-1', TABLE_NAME: 'bench-table' };

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${process.env.BENCH_RUNS}`);

const started = performance.now();
const handlers = [...new Set([...httpRoutes, ...socketRoutes, fallbackRoute, originAuthorizer].map((r) => r.handler))];
const outDir = join(buildDir, 'handlers');
const baselineFile = join(buildDir, 'baseline.mjs');
const handlerFile = (handler: string) => join(outDir, `${handler}.mjs`);

await rm(outDir, { recursive: true, force: true });
const [baselineBytes, ...handlerBytes] = await Promise.all([
  bundleLambda('bench/baseline.ts', baselineFile),
  ...handlers.map((h) => bundleLambda(handlerEntry(h), handlerFile(h), handlerAliases(h))),
]);
console.log(`Bundled ${handlers.length} handlers and the baseline; ${RUNS} import rounds on node ${process.version}...`);

const [baselineSamples, ...handlerSamples] = await measureImportTimes(
  [baselineFile, ...handlers.map(handlerFile)],
  RUNS,
  CHILD_ENV,
  (r) => process.stdout.isTTY && process.stdout.write(`\r  round ${r}/${RUNS}${r === RUNS ? '\n' : ''}`),
);
console.log();

const kb = (bytes: number) => round(bytes / 1024, 1);
const baselineMs = median(baselineSamples ?? []);
const results = handlers.map((handler, i) => {
  const bytes = handlerBytes[i] ?? 0;
  const medianMs = median(handlerSamples[i] ?? []);
  const ratio = medianMs / baselineMs;
  const sizeOk = bytes <= MAX_KB * 1024;
  const importOk = ratio <= MAX_IMPORT_RATIO;
  return {
    handler,
    bytes,
    kb: kb(bytes),
    medianMs: round(medianMs, 2),
    ratio: round(ratio, 2),
    sizeOk,
    importOk,
    pass: sizeOk && importOk,
  };
});
const pass = results.every((r) => r.pass);

const verdict = (r: (typeof results)[number]) =>
  r.pass ? 'pass' : `FAIL (${[r.sizeOk ? '' : 'size', r.importOk ? '' : 'import'].filter(Boolean).join(', ')})`;
printTable(
  ['handler', 'KB', 'median ms', 'x baseline', 'budget'],
  [
    ['(baseline)', kb(baselineBytes ?? 0).toFixed(1), baselineMs.toFixed(1), '1.00', ''],
    ...results.map((r) => [r.handler, r.kb.toFixed(1), r.medianMs.toFixed(1), r.ratio.toFixed(2), verdict(r)]),
  ],
  [1, 2, 3],
);
console.log(`\nBudgets: <= ${MAX_KB} KB minified and <= ${MAX_IMPORT_RATIO} x baseline median import time.`);

await writeJson(join(resultsDir, 'handlers.json'), {
  date: new Date().toISOString(),
  node: process.version,
  runs: RUNS,
  budgets: { maxKB: MAX_KB, maxImportRatio: MAX_IMPORT_RATIO },
  baseline: { bytes: baselineBytes, kb: kb(baselineBytes ?? 0), medianMs: round(baselineMs, 2) },
  handlers: results,
  pass,
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`${pass ? 'All handlers within budget' : 'Over budget'}; wrote bench/results/handlers.json in ${seconds} s.`);
process.exitCode = pass ? 0 : 1;
