import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startChild, stopChild } from './child';
import type { Logger } from './log';
import { waitFor } from './ports';

/** The SES v2 emulator (`aws-ses-v2-local`): the real SES client sends to it; `/` lists the mail. */
export async function startSes(options: { port: number; log: Logger }) {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('aws-ses-v2-local/package.json')), 'dist', 'cli.js');
  const child = startChild(process.execPath, [cli, '--host', '127.0.0.1', '--port', String(options.port)], { log: options.log });
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitFor('SES emulator', async () => (await fetch(`${url}/health-check`)).ok);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, pid: child.pid, stop: () => stopChild(child) };
}
