import { existsSync, readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { inject } from 'vitest';
import { setStack } from './api';
import type { ProvidedStack } from './test-stack';

/**
 * Setup file of the projects with a stack: waits until the project's global setup has written its
 * stack's description (stack-handoff.ts) and hands it to the tests (`stack()` in api.ts). A bound, not
 * a goal: a stack that is not up in this time has failed.
 */
const READY_WITHIN_MS = 300_000;

const file = inject('stackFile');
const ready = await new Promise<{ stack?: ProvidedStack; error?: string }>((resolve, reject) => {
  const read = () =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { stack?: ProvidedStack; error?: string }) : undefined;
  const done = (value: { stack?: ProvidedStack; error?: string }) => {
    watcher.close();
    clearTimeout(timer);
    resolve(value);
  };
  // The folder, not the file: the file appears by a rename into it.
  const watcher = watch(dirname(file), (_, name) => {
    if (name === basename(file)) {
      const value = read();
      if (value) done(value);
    }
  });
  const timer = setTimeout(() => {
    watcher.close();
    reject(new Error(`the test stack did not answer within ${READY_WITHIN_MS / 1000} s (${file})`));
  }, READY_WITHIN_MS);
  const already = read();
  if (already) done(already);
});
if (!ready.stack) throw new Error(`the test stack failed to start: ${ready.error}`);
setStack(ready.stack);
