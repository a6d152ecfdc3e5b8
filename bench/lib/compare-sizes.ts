import { median } from './import-time';
import { percentile } from './local-api';
import { printTable, round } from './report';

/**
 * Times one request against a small and a large company, alternating so that the machine's noise
 * falls on both alike, and drops the warm-up rounds. Each function answers one request's latency
 * in ms. `ratio` (large median / small median) is not rounded, so a goal is judged on the real value.
 */
export async function compareSizes(
  rounds: { warmUp: number; runs: number },
  small: () => Promise<number>,
  large: () => Promise<number>,
) {
  const samples = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < rounds.warmUp + rounds.runs; i++) {
    const s = await small();
    const l = await large();
    if (i >= rounds.warmUp) {
      samples.small.push(s);
      samples.large.push(l);
    }
  }
  const stats = (values: number[]) => ({ medianMs: round(median(values), 2), p95Ms: round(percentile(values, 95), 2) });
  return { small: stats(samples.small), large: stats(samples.large), ratio: median(samples.large) / median(samples.small) };
}

interface ComparedRow {
  query: string;
  small: { medianMs: number };
  large: { medianMs: number };
  ratio: number;
  pass: boolean;
}

/** The table each size bench prints: a row per request with both medians, the ratio and its verdict. */
export function printComparison<Row extends ComparedRow>(
  title: string,
  sizes: { small: number; large: number },
  rows: readonly Row[],
  verdict: (row: Row) => string = (row) => (row.pass ? 'pass' : 'FAIL'),
): void {
  printTable(
    [title, `${sizes.small} median ms`, `${sizes.large.toLocaleString('en-US')} median ms`, 'ratio', 'goal'],
    rows.map((r) => [r.query, r.small.medianMs.toFixed(2), r.large.medianMs.toFixed(2), r.ratio.toFixed(2), verdict(r)]),
    [1, 2, 3],
  );
}
