import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import type { Logger } from './log';

/** A child process whose output goes to the stack's log, and that can be stopped for sure. */
export function startChild(command: string, args: string[], options: { cwd?: string; log: Logger; env?: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  forwardLines(child, options.log);
  return child;
}

export function forwardLines(child: ChildProcess, log: Logger) {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log.info(line);
    });
  }
}

/** SIGTERM, then SIGKILL if the child has not exited within the grace period. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function hasCommand(command: string, versionArg = '-version'): boolean {
  const result = spawnSync(command, [versionArg], { stdio: 'ignore' });
  return !result.error;
}
