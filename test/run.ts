/**
 * `npm test` after lint, in three lanes side by side (docs/testing.md):
 * - the type-check (tsc, about 20 s of one core), whose output is printed when it ends;
 * - the browser project, one file at a time (each a Chromium and its pages), its lines marked `[browser]`;
 * - every other project, two files at a time.
 * vitest runs groups of projects one after another and a group shares one worker count, so a serial
 * browser lane beside a parallel one takes two vitest processes. A failed type-check stops the run.
 * The last line is the plain `N passed, N failed` of all lanes together, which CI reads.
 * `npm test -- <vitest arguments>` runs one vitest with those arguments instead (a project, a file).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import config from '../vitest.config';
import { type Counts, SUMMARY_FILE_VARIABLE, summaryLine } from './support/summary-reporter';

/** Benchmarks are `npm run bench`'s (vitest.config.ts); the browser project has a lane of its own. */
const NOT_TESTS = ['peak'];
const BROWSER = 'browser';
const projects = (config.test?.projects ?? []).flatMap((p) =>
  typeof p === 'object' && 'test' in p && p.test?.name ? [String(p.test.name)] : [],
);
const others = projects.filter((name) => name !== BROWSER && !NOT_TESTS.includes(name));

const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const args = process.argv.slice(2);
const summaries = mkdtempSync(join(tmpdir(), 'switchboard-test-'));

const children: ChildProcess[] = [];
const exited = (child: ChildProcess) =>
  new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

/** One vitest run; its lines marked with `mark` unless it has the terminal to itself. */
function vitest(lane: string, vitestArgs: string[], mark?: string) {
  const child = spawn(bin('vitest'), ['run', ...vitestArgs], {
    stdio: mark ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, [SUMMARY_FILE_VARIABLE]: join(summaries, `${lane}.json`) },
  });
  if (mark) {
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => console.log(`${mark} ${line}`));
    }
  }
  children.push(child);
  return { lane, done: exited(child) };
}

const typecheck = spawn(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { stdio: ['ignore', 'pipe', 'pipe'] });
children.push(typecheck);
const output: Buffer[] = [];
typecheck.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
typecheck.stderr?.on('data', (chunk: Buffer) => output.push(chunk));

const lanes = args.length
  ? [vitest('selected', args)]
  : [
      vitest(BROWSER, ['--project', BROWSER], `[${BROWSER}]`),
      vitest(
        'others',
        others.flatMap((name) => ['--project', name]),
      ),
    ];

const typeChecked = exited(typecheck).then((code) => {
  const text = Buffer.concat(output).toString().trim();
  if (code === 0) {
    console.log('Type-check passed (tsc).');
    return 0;
  }
  console.error(`\nType-check failed (tsc):\n${text}\n`);
  for (const child of children) child.kill('SIGINT');
  return code;
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const [typeCode, ...laneCodes] = await Promise.all([typeChecked, ...lanes.map((l) => l.done)]);

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const { lane } of lanes) {
  try {
    const counts = JSON.parse(readFileSync(join(summaries, `${lane}.json`), 'utf8')) as Counts;
    for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += counts[key];
  } catch {
    // A lane that ended before its summary (a crash, a failed type-check): its exit code says so.
    total.failed += 1;
  }
}
rmSync(summaries, { recursive: true, force: true });
console.log(`\n${summaryLine(total)}`);
process.exit(typeCode || laneCodes.find((code) => code !== 0) || 0);
