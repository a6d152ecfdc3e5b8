/**
 * `npm run bench` (last part): the first page of Call History must cost the same whatever the
 * company's history. Starts a local stack, signs up two companies, stores 10 calls in one and 10,000
 * in the other (BatchWrite, the items the voice webhooks store), then asks each for its first page
 * (`GET /api/v1/calls`: the default 100; 10 a page, the same work in both; and one status) through
 * the gateway, alternating between the two, and compares the median latencies. Writes
 * bench/results/calls.json; exits 1 when a ratio is over the goal. `BENCH_RUNS=30` for a quick run.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Call } from '../shared/contract/calls';
import { seedCalls } from '../test/support/calls';
import { startTestStack } from '../test/support/test-stack';
import { compareSizes, printComparison } from './lib/compare-sizes';
import { benchTable, localApi } from './lib/local-api';
import { resultsDir } from './lib/paths';
import { round, writeJson } from './lib/report';

const SMALL = 10;
const LARGE = 10_000;
/** A working company's callers call more than once. */
const LARGE_CONTACTS = 2_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const GOAL_RATIO = 1.5;

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${process.env.BENCH_RUNS}`);

const started = performance.now();
console.log(`Starting a local stack; ${SMALL} and ${LARGE.toLocaleString('en-US')} calls, ${RUNS} pages each...`);
const stack = await startTestStack({ web: false, label: 'bench' });
const { urls, env } = stack.provided;
const { call, signUp } = localApi(urls);

const table = benchTable(env);

async function companyWith(count: number, contacts: number) {
  const account = await signUp();
  // The list reads no channel item: the call carries the channel's id and number.
  const channel = { id: randomUUID(), identifier: '+14155550101' };
  const t0 = performance.now();
  await seedCalls(table, account.companyId, channel, { count, contacts });
  console.log(`  stored ${count.toLocaleString('en-US')} calls in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return account;
}

let pass = false;
try {
  const small = await companyWith(SMALL, SMALL);
  const large = await companyWith(LARGE, LARGE_CONTACTS);
  const queries = [
    { name: 'GET /api/v1/calls', path: '/api/v1/calls', limit: 100, share: 1 },
    { name: '… ?limit=10 (equal pages)', path: '/api/v1/calls?limit=10', limit: 10, share: 1 },
    { name: '… ?status=COMPLETED&limit=5', path: '/api/v1/calls?status=COMPLETED&limit=5', limit: 5, share: 0.5 },
  ];
  const firstPage = async (account: typeof small, path: string, expected: number) => {
    const t0 = performance.now();
    const page = await call<{ calls: Call[] }>(path, { method: 'GET', token: account.accessToken });
    const ms = performance.now() - t0;
    if (page.calls.length !== expected) throw new Error(`${path}: ${page.calls.length} calls, expected ${expected}`);
    return ms;
  };

  const results = [];
  for (const query of queries) {
    const pageOf = (count: number) => Math.min(query.limit, Math.floor(count * query.share));
    const measured = await compareSizes(
      { warmUp: WARM_UP, runs: RUNS },
      () => firstPage(small, query.path, pageOf(SMALL)),
      () => firstPage(large, query.path, pageOf(LARGE)),
    );
    results.push({
      query: query.name,
      path: query.path,
      small: { calls: SMALL, ...measured.small },
      large: { calls: LARGE, ...measured.large },
      ratio: round(measured.ratio, 2),
      pass: measured.ratio <= GOAL_RATIO,
    });
  }
  // The default page is 10 calls in the small company and 100 in the large one: different work. The
  // goal is judged on equal pages; the default page is reported.
  pass = results.filter((r) => r.path !== '/api/v1/calls').every((r) => r.pass);

  printComparison('first page', { small: SMALL, large: LARGE }, results, (r) =>
    r.path === '/api/v1/calls' ? '(10 vs 100 calls)' : r.pass ? 'pass' : 'FAIL',
  );
  console.log(
    `\nGoal: median latency with ${LARGE.toLocaleString('en-US')} calls <= ${GOAL_RATIO} x with ${SMALL}, equal pages.`,
  );
  await writeJson(join(resultsDir, 'calls.json'), {
    date: new Date().toISOString(),
    node: process.version,
    runs: RUNS,
    warmUp: WARM_UP,
    measured: 'GET /api/v1/calls first page through the local gateway against DynamoDB Local, request to response',
    goalRatio: GOAL_RATIO,
    results,
    pass,
  });
  console.log(`Wrote bench/results/calls.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await stack.stop();
}
process.exit(pass ? 0 : 1);
