import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) each process has had since it started; null where it cannot be read. */
export interface CpuSample {
  at: number;
  seconds: Record<string, number | null>;
}

/**
 * The CPU the local stack's processes have had: this one by `process.cpuUsage()` (getrusage, so every
 * thread of it: the gateway, the emulators and each function's environment, a worker thread), the
 * others from /proc/<pid>/stat — Linux only; elsewhere, or once a process has gone, null.
 */
export function sampleCpu(processes: Record<string, number | undefined>): CpuSample {
  const { user, system } = process.cpuUsage();
  const seconds: Record<string, number | null> = { thisProcess: (user + system) / 1e6 };
  for (const [name, pid] of Object.entries(processes))
    seconds[name] = pid === undefined ? null : procCpuSeconds(`/proc/${pid}/stat`);
  return { at: performance.now(), seconds };
}

/**
 * Seconds of CPU per second of wall time between two samples, per process and in total (2 would be
 * both cores of a 2-core machine); the total is null when any process's is.
 */
export function cpuPerSecond(start: CpuSample, end: CpuSample): Record<string, number | null> & { total: number | null } {
  const wallSeconds = (end.at - start.at) / 1000;
  const each: Record<string, number | null> = {};
  for (const [name, before] of Object.entries(start.seconds)) {
    const after = end.seconds[name];
    each[name] = before === null || after === null || after === undefined ? null : (after - before) / wallSeconds;
  }
  const values = Object.values(each);
  const total = values.some((v) => v === null) ? null : values.reduce((sum: number, v) => sum + (v ?? 0), 0);
  return { ...each, total };
}

let ticksPerSecond: number | undefined;
/** The unit of /proc's times: clock ticks, `getconf CLK_TCK` a second (100 on Linux's usual builds). */
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/**
 * The CPU this process's main thread has had (Linux: /proc/<pid>/task/<pid>/stat), in seconds; null
 * elsewhere. Unlike its event loop's utilisation, time it was ready to run but waiting for a core
 * does not count.
 */
export function mainThreadCpuSeconds(): number | null {
  return procCpuSeconds(`/proc/${process.pid}/task/${process.pid}/stat`);
}

/** utime + stime from a /proc stat file (a process's, all its threads; or one thread's), in seconds. */
function procCpuSeconds(file: string): number | null {
  let stat: string;
  try {
    stat = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  // proc(5): the command name is in parentheses and may hold spaces or parentheses itself, so the
  // fields are counted from after its last ')'; that rest starts at field 3 (state), and utime and
  // stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return (utime + stime) / clockTicks();
}
