import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { advanceClock, clockOffsetMs } from '../../local/clock';

/** What the control answers: the stack's time now and how far it runs ahead of the wall clock. */
export interface StackClockReading {
  nowMs: number;
  offsetMs: number;
}

/** The longest single move: a test moves past a timer of minutes at most, never days. */
const MAX_ADVANCE_MS = 60 * 60_000;

/**
 * The browser stack's clock control, in the stack's own process (browser-stack.ts): the tests run in
 * other processes, and the clock they move (local/clock.ts: the gateway, the function environments and
 * the Twilio emulator's dates and token checks) is that process's. Test stacks only, on a loopback port
 * whose address only the browser project is given: `npm start` and AWS have no such thing.
 * `GET /` reads it; `POST /advance` with `{ "ms": n }` moves it n ms ahead. Only ahead, as bench/cost.ts
 * moves it: tokens, throttle windows and TTLs never see time run back. Time as a parameter of the
 * tests: docs/architecture.md §6.
 */
export async function startClockControl() {
  const reading = (): StackClockReading => ({ nowMs: Date.now(), offsetMs: clockOffsetMs() });
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/') return answer(200, reading());
      if (req.method !== 'POST' || req.url !== '/advance') return answer(404, { error: 'GET / or POST /advance' });
      let ms = Number.NaN;
      try {
        ms = Number((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ms?: unknown }).ms);
      } catch {
        // answered below
      }
      if (!(Number.isFinite(ms) && ms >= 0 && ms <= MAX_ADVANCE_MS))
        return answer(400, { error: `ms: a number of milliseconds from 0 to ${MAX_ADVANCE_MS}` });
      advanceClock(Math.round(ms));
      answer(200, reading());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
