/**
 * `npm run bench` (admin overview): the platform administrators' overview must cost the same whatever
 * the number of companies. Starts a local stack (in-memory), signs up a platform administrator, then
 * stores companies (BatchWrite of the items sign-up stores: the company with its listing entry, its
 * owner, and for every third a Twilio connection) in steps, to 10, to 60 (one full page of 50 and
 * more) and to 1,000, and after each step asks `GET /api/v1/admin/overview` through the gateway.
 * With 10 companies the page holds 11, from 60 on a full page of 50: the goal compares 1,000 with 60
 * (the same page), and the table shows 10 too. Writes bench/results/admin.json; exits 1 over the goal.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { keys } from '../functions/lib/table';
import { ADMIN_COMPANIES_PAGE_SIZE, type AdminOverview } from '../shared/contract/admin';
import { putItems } from '../test/support/conversations';
import { PLATFORM_ADMIN_OVERVIEW } from '../test/support/global-setup';
import { startTestStack } from '../test/support/test-stack';
import { median } from './lib/import-time';
import { benchTable, localApi } from './lib/local-api';
import { resultsDir } from './lib/paths';
import { printTable, round, writeJson } from './lib/report';

const STEPS = [10, 60, 1_000];
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const GOAL_RATIO = 1.5;

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${process.env.BENCH_RUNS}`);

const started = performance.now();
console.log(`Starting a local stack; overview at ${STEPS.join(', ')} companies, ${RUNS} requests each...`);
const stack = await startTestStack({ web: false, label: 'bench', platformAdminEmails: PLATFORM_ADMIN_OVERVIEW });
const { urls, env } = stack.provided;

const { call, signUp } = localApi(urls);

const table = benchTable(env);

let stored = 0;
/** Companies as sign-up stores them, a second apart, until there are `total` besides the admin's. */
async function storeCompaniesUpTo(total: number) {
  const items: Record<string, unknown>[] = [];
  for (; stored < total; stored++) {
    const companyId = randomUUID();
    const ownerId = randomUUID();
    const createdAt = new Date(Date.UTC(2025, 0, 1) + stored * 1000).toISOString();
    items.push(
      {
        ...keys.company(companyId),
        ...keys.companyListing(createdAt, companyId),
        entity: 'COMPANY',
        id: companyId,
        name: `Company ${stored}`,
        ownerId,
        createdAt,
        userCount: 1,
        smsSentCount: stored % 7,
        smsReceivedCount: stored % 5,
      },
      {
        ...keys.user(companyId, ownerId),
        entity: 'USER',
        id: ownerId,
        companyId,
        name: `Owner ${stored}`,
        email: `owner-${stored}@example.test`,
        emailVerified: stored % 4 !== 0,
        role: 'OWNER',
        createdAt,
      },
      ...(stored % 3 === 0
        ? [{ ...keys.providerType(companyId, 'TWILIO'), entity: 'PROVIDER_TYPE', providerId: randomUUID() }]
        : []),
    );
  }
  await putItems(table, items);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

let pass = false;
try {
  const { accessToken: token } = await signUp('Platform Ops', PLATFORM_ADMIN_OVERVIEW);
  const results = [];
  for (const step of STEPS) {
    await storeCompaniesUpTo(step);
    const listed = Math.min(step + 1, ADMIN_COMPANIES_PAGE_SIZE);
    const samples: number[] = [];
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const t0 = performance.now();
      const overview = await call<AdminOverview>('/api/v1/admin/overview', { method: 'GET', token });
      const ms = performance.now() - t0;
      if (overview.companies.length !== listed) throw new Error(`${overview.companies.length} companies listed`);
      if (i >= WARM_UP) samples.push(ms);
    }
    results.push({ companies: step, listed, medianMs: round(median(samples), 2), p95Ms: round(percentile(samples, 95), 2) });
  }
  const [, fullPage, large] = results as [unknown, { medianMs: number }, { medianMs: number }];
  const ratio = round(large.medianMs / fullPage.medianMs, 2);
  pass = ratio <= GOAL_RATIO;

  printTable(
    ['companies', 'listed', 'median ms', 'p95 ms'],
    results.map((r) => [r.companies.toLocaleString('en-US'), String(r.listed), r.medianMs.toFixed(2), r.p95Ms.toFixed(2)]),
    [0, 1, 2, 3],
  );
  console.log(
    `\nratio 1,000 / 60 companies (both a full page of ${ADMIN_COMPANIES_PAGE_SIZE}): ${ratio} (goal <= ${GOAL_RATIO})`,
  );
  await writeJson(join(resultsDir, 'admin.json'), {
    date: new Date().toISOString(),
    node: process.version,
    runs: RUNS,
    warmUp: WARM_UP,
    measured: 'GET /api/v1/admin/overview (first page) through the local gateway against DynamoDB Local, request to response',
    pageSize: ADMIN_COMPANIES_PAGE_SIZE,
    goalRatio: GOAL_RATIO,
    results,
    ratio,
    pass,
  });
  console.log(`Wrote bench/results/admin.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await stack.stop();
}
process.exit(pass ? 0 : 1);
