import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { ProvidedStack } from './test-stack';

/**
 * A project's stack handed to its tests when it is ready, not before vitest may start any test:
 * vitest runs every project's global setup one after another before the first test file, so a stack
 * awaited there holds up every project, even those that need none (unit, web). The setup starts the
 * stack and returns at once; the stack's description is written to a file when it answers (or the
 * error, if it failed), and the project's setup file (stack-ready.ts) waits for that file before its
 * test files load (docs/testing.md: The stacks).
 */
export function handOffStack<Stack extends { provided: ProvidedStack }>(
  project: TestProject,
  label: string,
  start: () => Promise<Stack>,
) {
  const file = join(tmpdir(), `switchboard-stack-${label}-${process.pid}.json`);
  rmSync(file, { force: true });
  const write = (content: unknown) => {
    // Whole or not at all: a test file that looks while it is written must not read half of it.
    writeFileSync(`${file}.partial`, JSON.stringify(content));
    renameSync(`${file}.partial`, file);
  };
  const started = start().then(
    (stack) => {
      write({ stack: stack.provided });
      return stack;
    },
    (error: unknown) => {
      write({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      return undefined;
    },
  );
  project.provide('stackFile', file);
  return {
    /** The started stack, once it is (undefined if it failed). */
    started,
    /** Removes the hand-off file once the stack has started or failed. */
    forget: async () => {
      await started;
      rmSync(file, { force: true });
    },
  };
}

export type StackHandOff<Stack extends { provided: ProvidedStack }> = ReturnType<typeof handOffStack<Stack>>;

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the project's stack is described once it answers (stack-handoff.ts). */
    stackFile: string;
  }
}
