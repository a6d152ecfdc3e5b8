import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Set by test/run.ts for each vitest it runs: the counts go to this file, for its line of all lanes. */
export const SUMMARY_FILE_VARIABLE = 'SWITCHBOARD_TEST_SUMMARY_FILE';

/** The plain line that CI reads, whatever the runner. */
export const summaryLine = (counts: Counts) =>
  `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`;

/** Ends the run with the plain `N passed, N failed` line that CI reads. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (module.state() === 'failed' && module.children.size === 0) counts.failed++;
    }
    const file = process.env[SUMMARY_FILE_VARIABLE];
    if (file) writeFileSync(file, JSON.stringify(counts));
    console.log(`\n${summaryLine(counts)}`);
  }
}
