import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Milliseconds a fresh Node process spends on `await import(file)`, measured inside that process. */
async function importTime(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const url = JSON.stringify(pathToFileURL(file).href);
  const code = `const t = performance.now(); await import(${url}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--no-warnings', '--input-type=module', '-e', code], { env });
  const ms = Number(stdout);
  if (!Number.isFinite(ms)) throw new Error(`Unexpected output importing ${file}: ${stdout}`);
  return ms;
}

export const median = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/**
 * Import times of every file over `runs` rounds, one process at a time. Each round visits all files
 * (starting one further each round) so machine noise hits them all alike; one unrecorded warm-up
 * round first fills the file cache. Returns the samples per file, in the order of `files`.
 */
export async function measureImportTimes(
  files: readonly string[],
  runs: number,
  env: Record<string, string>,
  onRound?: (round: number) => void,
): Promise<number[][]> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS; // a plain node, without the loader tsx may have put there
  const samples = files.map((): number[] => []);
  for (let round = -1; round < runs; round++) {
    for (let k = 0; k < files.length; k++) {
      const i = (k + Math.max(round, 0)) % files.length;
      const ms = await importTime(files[i] as string, childEnv);
      if (round >= 0) samples[i]?.push(ms);
    }
    if (round >= 0) onRound?.(round + 1);
  }
  return samples;
}
