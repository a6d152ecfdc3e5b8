/**
 * `npx tsx bench/environment-cost.ts`: what one local function environment costs
 * (local/function-environments.ts). Bundles the soak's busiest functions as the gateway does, then
 * starts ENVIRONMENTS of each, one at a time, each a worker thread that imports its function's bundle
 * and stays alive, and reports per environment: the wall time until its bundle is loaded, the CPU
 * it took (this process's, all threads: starting the thread and loading the bundle), its own V8 heap
 * (used and total, once loaded) and what it added to this process's resident memory. Linux only
 * (resident memory from /proc). Prints; writes nothing.
 */
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { handlerEntry } from '../infra/bundling';
import { buildFunctionBundles, bundlesDir } from '../local/function-bundles';
import { median } from './lib/import-time';
import { printTable } from './lib/report';

const HANDLERS = ['conversations/get', 'webhooks/inbound-sms', 'conversations/send-message', 'webhooks/sms-status'];
const ENVIRONMENTS = Number(process.env.ENVIRONMENTS ?? 3);

/** What an environment does at its cold start (local/function-runtime.ts), then its heap as V8 counts it. */
const ENVIRONMENT = `
import { parentPort, workerData } from 'node:worker_threads';
import v8 from 'node:v8';
const started = performance.now();
await import(workerData.bundle);
const initMs = performance.now() - started;
const heap = v8.getHeapStatistics();
parentPort.on('message', () => {});
parentPort.postMessage({ initMs, heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size });
`;

const mb = (bytes: number) => bytes / 1024 / 1024;
const residentMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const outDir = bundlesDir('local');
const workers: Worker[] = [];
try {
  const bundles = await buildFunctionBundles({ handlers: HANDLERS, entryOf: handlerEntry, outDir });
  const rows: { initMs: number; cpuMs: number; heapUsed: number; heapTotal: number; rss: number }[] = [];
  for (const handler of HANDLERS) {
    for (let i = 0; i < ENVIRONMENTS; i++) {
      const rssBefore = residentMb();
      const cpuBefore = cpuMs();
      const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(ENVIRONMENT)}`), {
        workerData: { bundle: bundles.bundleOf(handler) },
        // As the stack starts them (local/stack.ts): without the SDK's Node.js version notice.
        env: { AWS_REGION: 'local', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      workers.push(worker);
      const ready = await new Promise<{ initMs: number; heapUsed: number; heapTotal: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      rows.push({ ...ready, cpuMs: cpuMs() - cpuBefore, rss: residentMb() - rssBefore });
    }
  }
  const stat = (pick: (r: (typeof rows)[number]) => number, digits = 0) =>
    `${median(rows.map(pick)).toFixed(digits)} (${Math.min(...rows.map(pick)).toFixed(digits)}–${Math.max(...rows.map(pick)).toFixed(digits)})`;
  console.log(`${rows.length} environments of ${HANDLERS.join(', ')}; median (min–max):`);
  printTable(
    ['init ms', 'CPU ms', 'heap used MB', 'heap total MB', 'RSS added MB'],
    [
      [
        stat((r) => r.initMs),
        stat((r) => r.cpuMs),
        stat((r) => mb(r.heapUsed), 1),
        stat((r) => mb(r.heapTotal), 1),
        stat((r) => r.rss, 1),
      ],
    ],
  );
  console.log(`Load average (1 min) ${loadavg()[0]?.toFixed(2)} on ${availableParallelism()} cores.`);
} finally {
  await Promise.all(workers.map((w) => w.terminate()));
  rmSync(outDir, { recursive: true, force: true });
}
