/**
 * `npm run bench` (third part): the realtime fan-out. Starts a local stack (DynamoDB Local and the
 * gateway, in-memory), signs up one company, opens 100 sockets to it through the gateway with tickets,
 * then publishes one event at a time with the product's `publish()` and measures the time from the
 * call until the last of the 100 sockets has received it. Writes bench/results/realtime.json; exits 1
 * when the p95 is over the goal. `BENCH_RUNS=20 npm run bench` for a quick run.
 */
import { join } from 'node:path';
import WebSocket from 'ws';
import { socketPath } from '../shared/contract/realtime-events';
import { startTestStack } from '../test/support/test-stack';
import { median } from './lib/import-time';
import { type BenchAccount, localApi, percentile } from './lib/local-api';
import { resultsDir } from './lib/paths';
import { printTable, round, writeJson } from './lib/report';

const SOCKETS = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 10;
const GOAL_P95_MS = 50;

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${process.env.BENCH_RUNS}`);

const started = performance.now();
console.log(`Starting a local stack; ${SOCKETS} sockets, ${RUNS} events on node ${process.version}...`);
const stack = await startTestStack({ web: false, label: 'bench' });
const { urls } = stack.provided;

const { signUp, call } = localApi(urls);

type Socket = { ws: WebSocket; onEvent: (listener: (seq: number) => void) => void };

async function openSocket(account: BenchAccount): Promise<Socket> {
  const { ticket } = await call<{ ticket: string }>('/api/v1/realtime/ticket', { token: account.accessToken });
  const query = new URLSearchParams({ ticket, userId: account.userId, companyId: account.companyId });
  const ws = new WebSocket(`${urls.websocket.replace(/\/ws$/, '')}${socketPath(account.companyId)}?${query}`);
  let listener: (seq: number) => void = () => {};
  ws.on('message', (data) => {
    const event = JSON.parse(data.toString()) as { type: string; data: { callSid?: string } };
    if (event.type === 'call_ended') listener(Number(event.data.callSid));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, onEvent: (l) => (listener = l) };
}

let pass = false;
try {
  // The publisher runs in this process, configured like a Lambda by the stack's environment.
  Object.assign(process.env, stack.provided.env);
  const { publish } = await import('../functions/realtime/publish');
  const account = await signUp();
  const sockets: Socket[] = [];
  for (let i = 0; i < SOCKETS; i++) sockets.push(await openSocket(account));

  /** Publishes event `seq` and answers the milliseconds until every socket has it. */
  const measureOne = async (seq: number): Promise<number> => {
    let pending = SOCKETS;
    const t0 = performance.now();
    const allHave = new Promise<number>((resolve) => {
      for (const s of sockets) {
        s.onEvent((got) => {
          if (got === seq && --pending === 0) resolve(performance.now() - t0);
        });
      }
    });
    const delivered = await publish(account.companyId, {
      type: 'call_ended',
      data: { callSid: String(seq) },
    });
    if (delivered !== SOCKETS) throw new Error(`event ${seq} reached ${delivered} of ${SOCKETS} sockets`);
    return allHave;
  };

  for (let i = 0; i < WARM_UP; i++) await measureOne(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    samples.push(await measureOne(i));
    if (process.stdout.isTTY) process.stdout.write(`\r  event ${i + 1}/${RUNS}${i + 1 === RUNS ? '\n' : ''}`);
  }
  // Closed before the stack stops, so that no $disconnect runs against a stopped database.
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise((resolve) => {
          s.ws.once('close', resolve);
          s.ws.close();
        }),
    ),
  );
  const { listConnections } = await import('../functions/realtime/connections');
  while ((await listConnections(account.companyId)).length > 0) await new Promise((r) => setTimeout(r, 50));

  const medianMs = round(median(samples), 1);
  const p95Ms = round(percentile(samples, 95), 1);
  const maxMs = round(Math.max(...samples), 1);
  pass = p95Ms <= GOAL_P95_MS;
  printTable(
    ['sockets', 'events', 'median ms', 'p95 ms', 'max ms', 'goal'],
    [[String(SOCKETS), String(RUNS), medianMs.toFixed(1), p95Ms.toFixed(1), maxMs.toFixed(1), pass ? 'pass' : 'FAIL']],
    [0, 1, 2, 3, 4],
  );
  console.log(`\nGoal: p95 <= ${GOAL_P95_MS} ms from publish() until the last of ${SOCKETS} sockets has the event.`);
  await writeJson(join(resultsDir, 'realtime.json'), {
    date: new Date().toISOString(),
    node: process.version,
    sockets: SOCKETS,
    runs: RUNS,
    warmUp: WARM_UP,
    measured: 'publish() call until the last socket received the event, through the local gateway',
    goalP95Ms: GOAL_P95_MS,
    medianMs,
    p95Ms,
    maxMs,
    pass,
  });
  console.log(`Wrote bench/results/realtime.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await stack.stop();
}
process.exit(pass ? 0 : 1);
