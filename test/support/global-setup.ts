import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { quietLogger } from '../../local/log';
import { freePort } from '../../local/ports';
import { localSettings } from '../../local/settings';
import { type LocalStack, startLocalStack } from '../../local/stack';

export const PLATFORM_ADMIN = 'admin@platform.test';

let stack: LocalStack | undefined;
let dataDir: string | undefined;

/** One real local stack for the integration project, on free ports, with an in-memory database. */
export async function setup(project: TestProject) {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  const settings = localSettings({ LOCAL_DATA_DIR: dataDir, PLATFORM_ADMIN_EMAILS: PLATFORM_ADMIN });
  const [apiPort, sesPort, dynamoPort, webPort, twilioEmulatorPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  stack = await startLocalStack({
    ...settings,
    apiPort,
    sesPort,
    dynamoPort,
    webPort,
    twilioEmulatorPort,
    persist: false,
    web: false,
    log: () => quietLogger,
  });
  project.provide('stack', { urls: stack.urls, env: stack.env, twilioDemo: stack.twilioDemo });
}

export async function teardown() {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { urls: LocalStack['urls']; env: LocalStack['env']; twilioDemo: LocalStack['twilioDemo'] };
  }
}
