/**
 * `npm run cost`: what one active company-month costs in AWS, measured, not guessed. Starts
 * a local stack (the web app as built for CloudFront) and, in headless Chromium, three agents' tabs
 * of the real web app. Each agent signs in through the form and opens the Conversations page with a
 * thread open; then, on time compression, an hour passes: the pages' clocks are Playwright's fake
 * clocks, moved a second at a time (each step fires the web app's own timers — its refetch intervals,
 * its socket heartbeats — and waits for the requests they send), and the stack's clock moves with
 * them (local/clock.ts: access tokens expire, cached secrets and the authorizer's answers go stale as
 * in an hour), so whatever the web app and the stack do in an hour is counted as it happens, in two
 * or three minutes. Then, still on that clock, texts arrive through the Twilio emulator (signed
 * webhooks), agents reply from the thread (the emulator posts the status callbacks), and calls ring
 * the agents, are answered and hung up.
 *
 * Counted as AWS would bill it: every request and socket frame through CloudFront (the pages' requests
 * with their sizes, the emulator's webhooks seen at this process's fetch), HTTP API requests,
 * WebSocket messages and connection-minutes, Lambda invocations and GB-seconds (each function's
 * measured run and init time at its memory in the stack: infra/constructs/switchboard-function.ts),
 * DynamoDB request units (the local endpoint's estimate, GET /_local/stats), Secrets Manager reads
 * (per function, as functions/lib/config.ts caches them, from when it was invoked), KMS decrypts,
 * SES mails. Events are counted above what the open tabs do anyway in the same time (the hour's rate).
 * Priced with bench/aws-prices.ts for one active company-month (bench/lib/cost-model.ts), printed,
 * and written to bench/results/cost.json. CHROMIUM_PATH overrides the browser.
 */

import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { SECRET_CACHE_TTL_SECONDS } from '../functions/lib/config';
import { httpRoutes, originAuthorizer, type RouteEntry, scheduledJobs, socketRoutes } from '../functions/routes';
import { FUNCTION_MEMORY_MIB, PASSWORD_HASHING_MEMORY_MIB } from '../infra/constructs/switchboard-function';
import { clockOffsetMs, setClockOffset } from '../local/clock';
import type { FunctionStats } from '../local/function-environments';
import { socketConnect } from '../shared/contract/realtime';
import { CHROMIUM, launchChromium } from '../test/support/browser-launch';
import { startTestStack } from '../test/support/test-stack';
import { AWS_PRICES, PRICES_CHECKED, TWILIO_PRICES } from './aws-prices';
import {
  ACTIVE_COMPANY_MONTH,
  addUsage,
  awsBill,
  companyMonthUsage,
  gbSeconds,
  logUsage,
  type MeasuredParts,
  meteredUnits,
  noUsage,
  scaleUsage,
  secretReads,
  total,
  twilioBill,
  type Usage,
  usageAbove,
} from './lib/cost-model';
import { localApi } from './lib/local-api';
import { resultsDir } from './lib/paths';
import { printTable, round, writeJson } from './lib/report';

/** The goal for one active company-month (docs/operations.md: Cost). */
const GOAL_USD = 0.3;
/**
 * How far the clocks move per step: at most the web app's shortest refetch interval (2 s after a send
 * today), so that no refetch fires twice in one step while the first is in flight (it would be merged).
 */
const STEP_MS = 2000;
const HOUR_MS = 60 * 60 * 1000;
/** A share of the month's traffic, each priced per one and multiplied up. */
const TEXTS_IN = 6;
const REPLIES_PER_AGENT = 2;
const CALLS = 2;
/** Scheduled health checks of the company's number the run makes, an interval apart. */
const HEALTH_CHECKS = 3;
/** After each event, the clocks run this long, so what the web app does about it later (a faster refetch) is in. */
const AFTER_EVENT_MS = 60_000;
const PASSWORD = 'cost password 1';
const PHONES = ['+12025550101', '+12025550102', '+12025550103'];

if (!existsSync(CHROMIUM)) {
  console.error(`No Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);
  process.exit(1);
}
const started = performance.now();
console.log('Starting a local stack with the built web app...');
// Write units from the items' sizes, index writes included (local/dynamodb-proxy.ts capacityUnits).
process.env.DYNAMODB_ITEM_SIZES = 'on';
const stack = await startTestStack({ web: true, webBuild: true, label: 'cost' });
const { urls } = stack.provided;
const apiOrigin = new URL(urls.api).origin;
const webOrigin = new URL(urls.web).origin;
const signallingHost = new URL(urls.signalling).host;

// --- Route facts: each function's memory in AWS, and the secrets it reads ---
const allRoutes: RouteEntry[] = [...httpRoutes, ...socketRoutes, originAuthorizer, ...scheduledJobs];
const routeOf = new Map(allRoutes.map((r) => [r.handler, r]));
const memoryMib = (handler: string) =>
  routeOf.get(handler)?.hashesPasswords ? PASSWORD_HASHING_MEMORY_MIB : FUNCTION_MEMORY_MIB;
const httpHandlers = new Set([...httpRoutes.map((r) => r.handler), originAuthorizer.handler]);
const connectHandler = socketRoutes.find((r) => r.contract === socketConnect)?.handler;
/**
 * Secrets Manager calls per read of a function's secrets (one GetSecretValue of AWSCURRENT each:
 * functions/lib/config.ts reads AWSPREVIOUS only for a value the current one does not match, which
 * only happens during a rotation): the origin secret where the viewer's request arrives (HTTP routes,
 * the authorizer, `$connect`), the JWT secret with the `jwt` capability.
 */
const secretCallsPerRead = (handler: string) =>
  (httpHandlers.has(handler) || handler === connectHandler ? 1 : 0) +
  (routeOf.get(handler)?.capabilities.includes('jwt') ? 1 : 0);
/**
 * KMS Decrypt calls: webhooks keep the decrypted auth token per environment
 * (functions/lib/define-webhook.ts), so one per new environment; the routes that call Twilio's REST
 * API or sign voice tokens decrypt per invocation (functions/settings/twilio-account.ts,
 * functions/voice/voice-token.ts); `$default` decrypts only to reject a call, which the run does not.
 */
const decryptsPerInvocation = (handler: string) =>
  !handler.startsWith('webhooks/') && handler !== 'realtime/default' && Boolean(routeOf.get(handler)?.kms?.includes('decrypt'));

// --- The clocks: the pages' fake clocks and the stack's run `sim` ms ahead together ---
let simMs = 0;
/** Where the pages' paused clocks stand (epoch ms), once the run moves them. */
let pagesAt = 0;
const wallNow = () => performance.timeOrigin + performance.now();
/**
 * Sets the stack's clock (wall time plus an offset, local/clock.ts) level with the pages' at each step.
 * Wall time runs on while a step is played, so an offset that only grew by the steps would leave the
 * stack ahead by the whole run's duration at its end (minutes): the server would see an access token
 * expire while the page still thinks it has time (a 401 and a second request, which a real tab whose
 * clock is right does not make). Never back: a slow step leaves it ahead by that step's time at most.
 */
const levelStackClock = () => setClockOffset(Math.max(clockOffsetMs(), pagesAt - wallNow()));
/** Per function: the simulated times (step resolution) it was invoked at. */
const invokedAt = new Map<string, number[]>();
let lastStats: Record<string, FunctionStats> = {};
async function noteInvocations() {
  const now = await stack.functionStats();
  for (const [name, f] of Object.entries(now)) {
    const before = lastStats[name]?.invocations ?? 0;
    const times = invokedAt.get(name) ?? [];
    for (let i = before; i < f.invocations; i++) times.push(simMs);
    invokedAt.set(name, times);
  }
  lastStats = now;
}

// --- Counting what passes CloudFront ---
interface Counter {
  cloudFrontRequests: number;
  bytesOut: number;
  bytesToOrigin: number;
  httpApiRequests: number;
  socketMessages: number;
  socketMinutes: number;
  /** Lines of the HTTP API's access log: one a request. */
  httpAccessLines: number;
  /** Lines of the WebSocket API's access log: a connect, each message from a tab, a disconnect. */
  socketAccessLines: number;
  byKind: Map<string, number>;
}
const counter: Counter = {
  cloudFrontRequests: 0,
  bytesOut: 0,
  bytesToOrigin: 0,
  httpApiRequests: 0,
  socketMessages: 0,
  socketMinutes: 0,
  httpAccessLines: 0,
  socketAccessLines: 0,
  byKind: new Map(),
};
const countKind = (kind: string) => counter.byKind.set(kind, (counter.byKind.get(kind) ?? 0) + 1);
/** The pages' requests not yet answered, by method and URL. */
const inFlight = new Map<object, string>();
const openSockets = new Set<{ openedAt: number }>();

/** The web app's requests and socket in one tab, as CloudFront would see them. */
function watch(page: Page) {
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== webOrigin) return; // Twilio's (the emulator's signalling and sounds) are not ours.
    inFlight.set(request, `${request.method()} ${url.pathname}`);
    const done = async () => {
      const sizes = await request.sizes().catch(() => undefined);
      const toOrigin = (sizes?.requestHeadersSize ?? 0) + (sizes?.requestBodySize ?? 0);
      counter.cloudFrontRequests++;
      counter.bytesOut += (sizes?.responseHeadersSize ?? 0) + (sizes?.responseBodySize ?? 0);
      counter.bytesToOrigin += toOrigin;
      if (url.pathname.startsWith('/api/')) {
        counter.httpApiRequests += meteredUnits(toOrigin, AWS_PRICES.apiGateway.httpRequestIncrementBytes);
        counter.httpAccessLines++;
        countKind(`${request.method()} ${url.pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')}`);
      } else {
        countKind('static file');
      }
      inFlight.delete(request);
    };
    // Settled either way: a failed request reached CloudFront too.
    request
      .response()
      .then((response) => response?.finished())
      .catch(() => undefined)
      .then(done);
  });
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).origin.replace(/^ws/, 'http') !== webOrigin) return;
    counter.cloudFrontRequests++;
    counter.socketAccessLines++;
    countKind('socket upgrade');
    const socket = { openedAt: simMs };
    openSockets.add(socket);
    const frame = (direction: 'in' | 'out') => (f: { payload: string | Buffer }) => {
      const bytes = typeof f.payload === 'string' ? Buffer.byteLength(f.payload) : f.payload.length;
      counter.socketMessages += meteredUnits(bytes, AWS_PRICES.apiGateway.socketMessageIncrementBytes);
      if (direction === 'in') counter.bytesOut += bytes;
      else counter.bytesToOrigin += bytes;
      if (direction === 'out') counter.socketAccessLines++;
      countKind(direction === 'in' ? 'socket frame to the tab' : 'socket frame from the tab');
    };
    ws.on('framereceived', frame('in'));
    ws.on('framesent', frame('out'));
    ws.on('close', () => {
      if (!openSockets.delete(socket)) return;
      counter.socketAccessLines++;
      counter.socketMinutes += (simMs - socket.openedAt) / 60_000;
    });
  });
}

// The emulator's webhooks (it posts them with fetch in this process), through undici's diagnostics channels.
interface UndiciRequest {
  origin: string | URL;
  path: string;
  body?: unknown;
}
const webhookRequests = new WeakSet<UndiciRequest>();
const onCreate = (message: unknown) => {
  const { request } = message as { request: UndiciRequest };
  if (String(request.origin) !== apiOrigin || !request.path.startsWith('/webhooks/')) return;
  webhookRequests.add(request);
  const body = request.body;
  counter.cloudFrontRequests++;
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0;
  counter.bytesToOrigin += bytes + request.path.length;
  counter.httpApiRequests += meteredUnits(bytes, AWS_PRICES.apiGateway.httpRequestIncrementBytes);
  counter.httpAccessLines++;
  countKind(`webhook ${request.path.replace(/^\/webhooks\/twilio\/[^/]+/, '').replace(/\?.*$/, '')}`);
};
const onHeaders = (message: unknown) => {
  const { request, response } = message as { request: UndiciRequest; response: { headers: Buffer[] } };
  if (!webhookRequests.has(request)) return;
  const headers = response.headers.map(String);
  const at = headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'content-length');
  const body = at >= 0 ? Number(headers[at + 1]) : 0;
  counter.bytesOut += (Number.isFinite(body) ? body : 0) + headers.reduce((n, h) => n + h.length + 2, 0);
};
subscribe('undici:request:create', onCreate);
subscribe('undici:request:headers', onHeaders);

interface Snapshot {
  counter: Omit<Counter, 'byKind'> & { byKind: Record<string, number> };
  functions: Record<string, FunctionStats>;
  table: { read: number; write: number };
  /** DynamoDB requests per calling function and operation. */
  tableRequests: Record<string, Record<string, number>>;
  mails: number;
  simMs: number;
  invokedAt: Record<string, number[]>;
}
async function snapshot(): Promise<Snapshot> {
  await noteInvocations();
  const table = (await (await fetch(`${urls.dynamodb}/_local/stats`)).json()) as {
    capacityUnits: { read: number; write: number };
    byFunction: Record<string, Record<string, number>>;
  };
  const mails = ((await (await fetch(`${urls.mail}/store`)).json()) as { emails: unknown[] }).emails.length;
  // Sockets open now: their minutes so far.
  const socketMinutes = counter.socketMinutes + [...openSockets].reduce((n, s) => n + (simMs - s.openedAt) / 60_000, 0);
  return {
    counter: { ...counter, socketMinutes, byKind: Object.fromEntries(counter.byKind) },
    functions: structuredClone(lastStats),
    table: { ...table.capacityUnits },
    tableRequests: table.byFunction,
    mails,
    simMs,
    invokedAt: Object.fromEntries([...invokedAt].map(([k, v]) => [k, [...v]])),
  };
}

/** What happened between two snapshots, as billed usage, and by function (for the report). */
function usageBetween(a: Snapshot, b: Snapshot) {
  const usage = noUsage();
  usage.cloudFrontRequests = b.counter.cloudFrontRequests - a.counter.cloudFrontRequests;
  usage.cloudFrontBytesOut = b.counter.bytesOut - a.counter.bytesOut;
  usage.cloudFrontBytesToOrigin = b.counter.bytesToOrigin - a.counter.bytesToOrigin;
  usage.httpApiRequests = b.counter.httpApiRequests - a.counter.httpApiRequests;
  usage.socketMessages = b.counter.socketMessages - a.counter.socketMessages;
  usage.socketConnectionMinutes = b.counter.socketMinutes - a.counter.socketMinutes;
  usage.dynamoReadUnits = b.table.read - a.table.read;
  usage.dynamoWriteUnits = b.table.write - a.table.write;
  usage.sesMails = b.mails - a.mails;
  const functions: Record<string, { invocations: number; gbSeconds: number; runMs: number; initMs: number }> = {};
  for (const [name, f] of Object.entries(b.functions)) {
    const before = a.functions[name];
    const invocations = f.invocations - (before?.invocations ?? 0);
    const runMs = f.runMs - (before?.runMs ?? 0);
    // Lambda bills a cold start's INIT phase too; the local environments time theirs.
    const initMs = f.initMs.slice(before?.initMs.length ?? 0).reduce((n, ms) => n + ms, 0);
    const newEnvironments = f.environments - (before?.environments ?? 0);
    if (invocations === 0 && newEnvironments === 0) continue;
    const gb = gbSeconds(runMs + initMs, memoryMib(name));
    functions[name] = { invocations, gbSeconds: gb, runMs, initMs };
    usage.lambdaInvocations += invocations;
    usage.lambdaGbSeconds += gb;
    usage.kmsRequests += name.startsWith('webhooks/') ? newEnvironments : decryptsPerInvocation(name) ? invocations : 0;
    // Reads of its secrets between the snapshots: those over the whole run so far less those before `a`.
    const ttlMs = SECRET_CACHE_TTL_SECONDS * 1000;
    const times = b.invokedAt[name] ?? [];
    const perRead = secretCallsPerRead(name);
    usage.secretsManagerCalls +=
      secretReads(times, ttlMs, perRead) - secretReads(times.slice(0, a.invokedAt[name]?.length ?? 0), ttlMs, perRead);
  }
  const kinds: Record<string, number> = {};
  for (const [k, n] of Object.entries(b.counter.byKind)) {
    const d = n - (a.counter.byKind[k] ?? 0);
    if (d) kinds[k] = d;
  }
  Object.assign(
    usage,
    logUsage(
      b.counter.httpAccessLines - a.counter.httpAccessLines,
      b.counter.socketAccessLines - a.counter.socketAccessLines,
      usage.lambdaInvocations,
    ),
  );
  const tableRequests: Record<string, Record<string, number>> = {};
  for (const [name, operations] of Object.entries(b.tableRequests)) {
    for (const [operation, n] of Object.entries(operations)) {
      const d = n - (a.tableRequests[name]?.[operation] ?? 0);
      if (d) tableRequests[name] = { ...tableRequests[name], [operation]: d };
    }
  }
  return { usage, functions, kinds, tableRequests, simMs: b.simMs - a.simMs };
}

const pages: Page[] = [];
const contexts: BrowserContext[] = [];
/**
 * The Voice SDK's signalling sockets (to Twilio, here the emulator). The SDK reconnects after 15 s of
 * its page's clock without a frame from Twilio, whose keep-alive beats run on the wall clock: on the
 * compressed clock every device would reconnect (and fetch a voice token) every few simulated seconds.
 * Each step therefore hands each page the beat Twilio would have sent meanwhile ('\n', which the SDK
 * answers to Twilio as it does a real one). Twilio's traffic is not ours and is not counted.
 */
const signalling: WebSocketRoute[] = [];

const reportedSlow = new WeakSet<object>();
/** Waits until the pages' requests are answered and the functions they started have run. */
async function settle() {
  for (let i = 0; i < 200 && inFlight.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
  // A request that outlives two seconds holds every later step up: say which, once.
  for (const [request, what] of inFlight) {
    if (reportedSlow.has(request)) continue;
    reportedSlow.add(request);
    console.log(`  still waiting for ${what} at ${simMs / 1000} simulated s`);
  }
}

/** Moves every clock `ms` ahead, STEP_MS at a time, letting the web app's timers fire and their requests finish. */
async function pass(ms: number) {
  for (let moved = 0; moved < ms; moved += STEP_MS) {
    const step = Math.min(STEP_MS, ms - moved);
    pagesAt += step;
    levelStackClock();
    simMs += step;
    for (const route of signalling) {
      try {
        route.send('\n');
      } catch {
        // A socket the SDK has closed meanwhile: nothing to keep alive.
      }
    }
    await Promise.all(pages.map((p) => p.clock.runFor(step)));
    await settle();
    await noteInvocations();
    if (simMs % (10 * 60_000) === 0)
      console.log(`  ${simMs / 60_000} simulated minutes after ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}

async function emulator<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${urls.twilio}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const api = localApi(urls);
let exitCode = 1;
const browser = await launchChromium();
try {
  // --- Setup (not counted): a company with a Twilio number ringing and texting an inbox of three agents ---
  const owner = { email: `cost-owner-${randomUUID().slice(0, 8)}@example.test`, password: PASSWORD };
  await api.call('/api/v1/auth/register', {
    body: { companyName: 'Cost Co', name: 'Cost Owner', email: owner.email, password: PASSWORD },
  });
  const verified = await api.call<{ user: { id: string }; tokens: { accessToken: string } }>('/api/v1/auth/verify-email', {
    body: { token: await api.mailedToken(owner.email, /verify-email[?#]token=([\w-]+)/) },
  });
  const token = verified.tokens.accessToken;
  const twilio = await emulator<{
    accountSid: string;
    authToken: string;
    numbers: { sid: string; phone_number: string; capabilities: { sms: boolean; voice: boolean } }[];
  }>('/_emulator/accounts', {});
  const number = twilio.numbers.find((n) => n.capabilities.sms && n.capabilities.voice);
  if (!number) throw new Error('the emulator account has no voice+SMS number');
  const { provider } = await api.call<{ provider: { id: string } }>('/api/v1/providers/twilio', {
    token,
    body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
  });
  const { channels } = await api.call<{ channels: { id: string }[] }>(`/api/v1/providers/${provider.id}/import-channels`, {
    token,
    body: { numbers: [{ sid: number.sid, phoneNumber: number.phone_number, capabilities: { voice: true, sms: true } }] },
  });
  const agents = [{ userId: verified.user.id, email: owner.email }];
  for (let i = 1; i < ACTIVE_COMPANY_MONTH.agents; i++) {
    const email = `cost-agent-${i}-${randomUUID().slice(0, 8)}@example.test`;
    await api.call('/api/v1/invitations', { token, body: { email, role: 'AGENT' } });
    const accepted = await api.call<{ user: { id: string } }>('/api/v1/invitations/accept', {
      body: { token: await api.mailedToken(email, /accept-invite[?#]token=([\w-]+)/), name: `Agent ${i}`, password: PASSWORD },
    });
    agents.push({ userId: accepted.user.id, email });
  }
  const { inbox } = await api.call<{ inbox: { id: string } }>('/api/v1/inboxes', { token, body: { name: 'Support' } });
  for (const agent of agents) await api.call(`/api/v1/inboxes/${inbox.id}/members`, { token, body: { userId: agent.userId } });
  const routing = await fetch(`${urls.api}/api/v1/channels/${channels[0]?.id}/routing`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ routingType: 'INBOX', routingTargetId: inbox.id }),
  });
  if (!routing.ok) throw new Error(`routing answered ${routing.status}`);
  // Earlier conversations, one per phone: each agent has one open.
  for (const phone of PHONES) await emulator('/_emulator/messages', { from: phone, to: number.phone_number, body: 'Hello?' });
  const list = await api.call<{ conversations: { id: string; contactPhone?: string }[] }>(
    '/api/v1/conversations?status=OPEN&limit=20',
    { method: 'GET', token },
  );
  const threads = list.conversations.map((c) => c.id);
  if (threads.length < PHONES.length) throw new Error(`expected ${PHONES.length} conversations, found ${threads.length}`);
  console.log(`Set up a company of ${agents.length} agents in ${((performance.now() - started) / 1000).toFixed(0)} s.`);

  // --- A working day starts: each agent signs in and opens a thread (the pages' clocks run free) ---
  const beforeSignIn = await snapshot();
  for (const [i, agent] of agents.entries()) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
    context.setDefaultTimeout(60_000);
    contexts.push(context);
    const page = await context.newPage();
    await page.clock.install();
    await page.routeWebSocket(
      (url) => url.host === signallingHost,
      (route) => {
        route.connectToServer();
        signalling.push(route);
      },
    );
    watch(page);
    pages.push(page);
    await page.goto(`${urls.web}/login`);
    await page.getByLabel('Email').fill(agent.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${urls.web}/conversations/${threads[i % threads.length]}`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible' });
  }
  await settle();
  const signedIn = await snapshot();
  // From here the clocks move only when the run moves them.
  pagesAt = Date.now() + 1000;
  await Promise.all(pages.map((p) => p.clock.pauseAt(pagesAt)));
  levelStackClock();

  // --- An hour of the open tabs by themselves ---
  console.log(`Signed in ${pages.length} tabs; an hour passes (time compressed, ${STEP_MS / 1000} s steps)...`);
  const hourStart = await snapshot();
  await pass(HOUR_MS);
  const hourEnd = await snapshot();
  console.log(`The hour took ${((performance.now() - started) / 1000).toFixed(0)} s so far.`);

  // --- Texts arrive: each one, then a minute of the clocks ---
  const textsInStart = await snapshot();
  for (let i = 0; i < TEXTS_IN; i++) {
    await emulator('/_emulator/messages', { from: PHONES[i % PHONES.length], to: number.phone_number, body: `Question ${i}` });
    await pass(AFTER_EVENT_MS);
  }
  const textsInEnd = await snapshot();

  // --- Agents reply from the open thread, as people do: type, Enter ---
  const repliesStart = await snapshot();
  let replies = 0;
  for (let round = 0; round < REPLIES_PER_AGENT; round++) {
    for (const page of pages) {
      const composer = page.getByRole('textbox', { name: 'Message' });
      const sent = page.waitForResponse((r) => r.request().method() === 'POST' && /\/messages$/.test(new URL(r.url()).pathname));
      await composer.fill(`Answer ${replies++}`);
      await composer.press('Enter');
      if (!(await sent).ok()) throw new Error('a reply was refused');
      await pass(AFTER_EVENT_MS);
    }
  }
  // The carrier's last status callbacks (the emulator's own pace, in wall time).
  const account = async () =>
    (await (await fetch(`${urls.twilio}/_emulator/accounts/${twilio.accountSid}`)).json()) as {
      messages: { direction: string; status: string }[];
    };
  for (let i = 0; i < 100; i++) {
    const outbound = (await account()).messages.filter((m) => m.direction === 'outbound-api');
    if (outbound.length >= replies && outbound.every((m) => ['delivered', 'undelivered', 'failed'].includes(m.status))) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await pass(STEP_MS);
  const repliesEnd = await snapshot();

  // --- Calls: ringing the inbox, answered by an agent, talked through, hung up ---
  const callsStart = await snapshot();
  for (let i = 0; i < CALLS; i++) {
    const call = await emulator<{ sid: string }>('/_emulator/calls', {
      from: PHONES[i % PHONES.length],
      to: number.phone_number,
    });
    await pass(5_000);
    const taker = agents[i % agents.length] as { userId: string };
    await emulator(`/_emulator/calls/${call.sid}/answer`, { by: `client:user_${taker.userId.replaceAll('-', '_')}` });
    await pass(ACTIVE_COMPANY_MONTH.callMinutes * 60_000);
    await emulator(`/_emulator/calls/${call.sid}/hangup`, {});
    await pass(AFTER_EVENT_MS);
  }
  const callsEnd = await snapshot();

  // --- The scheduled health check, as its EventBridge rule runs it: the stack's clock a
  // check interval on between runs (the sweep skips a number checked within half of it); the tabs'
  // clocks stay, so they add nothing meanwhile ---
  const checksStart = await snapshot();
  for (let i = 0; i < HEALTH_CHECKS; i++) {
    setClockOffset(clockOffsetMs() + ACTIVE_COMPANY_MONTH.healthCheckMinutes * 60_000);
    await stack.runScheduled('channelHealth', { intervalMinutes: ACTIVE_COMPANY_MONTH.healthCheckMinutes });
  }
  const checksEnd = await snapshot();

  // --- Per one of each, above what the tabs do anyway ---
  const hour = usageBetween(hourStart, hourEnd);
  const perSimMs = scaleUsage(hour.usage, 1 / hour.simMs);
  const above = (a: Snapshot, b: Snapshot, count: number) => {
    const part = usageBetween(a, b);
    return { ...part, perOne: scaleUsage(usageAbove(part.usage, scaleUsage(perSimMs, part.simMs)), 1 / count) };
  };
  const signIn = usageBetween(beforeSignIn, signedIn);
  const textsIn = above(textsInStart, textsInEnd, TEXTS_IN);
  const repliesPart = above(repliesStart, repliesEnd, replies);
  const callsPart = above(callsStart, callsEnd, CALLS);
  const parts: MeasuredParts = {
    signIn: scaleUsage(signIn.usage, 1 / pages.length),
    tabHour: scaleUsage(hour.usage, HOUR_MS / hour.simMs / pages.length),
    textIn: textsIn.perOne,
    textOut: repliesPart.perOne,
    call: callsPart.perOne,
    healthCheck: scaleUsage(usageBetween(checksStart, checksEnd).usage, 1 / HEALTH_CHECKS),
  };
  const month = companyMonthUsage(parts, ACTIVE_COMPANY_MONTH);
  const monthUsage = addUsage(...Object.values(month));
  const bill = awsBill(monthUsage, AWS_PRICES);
  const awsTotal = total(bill);
  const byPart = Object.fromEntries(Object.entries(month).map(([k, u]) => [k, total(awsBill(u, AWS_PRICES))])) as Record<
    keyof MeasuredParts,
    number
  >;
  const twilioLines = twilioBill(ACTIVE_COMPANY_MONTH, TWILIO_PRICES);
  const twilioTotal = total(twilioLines);

  // --- Report ---
  const m = ACTIVE_COMPANY_MONTH;
  const usd = (n: number) => `$${n.toFixed(n < 0.01 && n > 0 ? 4 : 3)}`;
  const quantity = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3));
  console.log(
    `\nOne active company-month: ${m.agents} agents × ${m.hoursPerDay} h × ${m.days} days, one tab each; ${m.textsIn} texts in, ${m.textsOut} out, ${m.calls} calls of ${m.callMinutes} min. us-east-1 list prices of ${PRICES_CHECKED}.\n`,
  );
  printTable(
    ['service', 'item', 'quantity', 'unit', 'cost'],
    bill.map((l) => [l.service, l.item, quantity(l.quantity), l.unit, usd(l.usd)]),
    [2, 4],
  );
  console.log('');
  printTable(
    ['where it goes', 'per month'],
    [
      [`open tabs (${m.agents * m.hoursPerDay * m.days} tab-hours)`, usd(byPart.tabHour)],
      [`sign-ins (${m.agents * m.days})`, usd(byPart.signIn)],
      [`texts in (${m.textsIn})`, usd(byPart.textIn)],
      [`texts out (${m.textsOut})`, usd(byPart.textOut)],
      [`calls (${m.calls})`, usd(byPart.call)],
      [`health checks (${m.numbers * m.calendarDays * ((24 * 60) / m.healthCheckMinutes)})`, usd(byPart.healthCheck)],
    ],
    [1],
  );
  console.log('');
  const perTabHour = Object.entries(hour.kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => [kind, (n / pages.length / (hour.simMs / HOUR_MS)).toFixed(1)]);
  printTable(['one tab, one hour: requests and frames', 'count'], perTabHour, [1]);
  console.log('');
  printTable(
    ['Twilio, same month', 'quantity', 'cost'],
    twilioLines.map((l) => [l.item, `${quantity(l.quantity)} ${l.unit}`, usd(l.usd)]),
    [1, 2],
  );
  console.log(`Twilio: $${twilioTotal.toFixed(2)} a month (list prices, carrier fees not included).`);
  console.log(
    `Lambda durations are this machine's (load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores at the end): a busy machine makes them longer than in Lambda.`,
  );
  console.log(`\ncost per active company-month: $${awsTotal.toFixed(2)} (goal $${GOAL_USD.toFixed(2)})`);

  const rounded = (u: Usage) => Object.fromEntries(Object.entries(u).map(([k, v]) => [k, round(v, 6)]));
  await writeJson(join(resultsDir, 'cost.json'), {
    date: new Date(Date.now() - simMs).toISOString(),
    pricesChecked: PRICES_CHECKED,
    region: AWS_PRICES.region,
    model: ACTIVE_COMPANY_MONTH,
    method: {
      timeCompression: `the pages' fake clocks (Playwright) and the stack's clock (local/clock.ts) moved ${STEP_MS} ms a step, each step's requests answered before the next`,
      events: `${TEXTS_IN} texts in, ${replies} replies, ${CALLS} calls, each followed by ${AFTER_EVENT_MS / 1000} s of the clocks; counted above the open tabs' own rate over the same time`,
      dynamoDb:
        'request units as the local DynamoDB endpoint estimates them from the items written, before and after, index writes included (local/dynamodb-proxy.ts capacityUnits, DYNAMODB_ITEM_SIZES=on)',
      logs: 'access-log lines of both APIs as counted, and Lambda’s own lines per invocation, at LOG_EVENT_BYTES each (bench/lib/cost-model.ts)',
      lambda: 'each function’s measured run and init time locally at its AWS memory; local durations on a shared machine',
    },
    perOne: Object.fromEntries(Object.entries(parts).map(([k, u]) => [k, rounded(u)])),
    month: rounded(monthUsage),
    aws: {
      lines: bill.map((l) => ({ ...l, quantity: round(l.quantity, 4), usd: round(l.usd, 5) })),
      totalUsd: round(awsTotal, 4),
    },
    byPartUsd: Object.fromEntries(Object.entries(byPart).map(([k, v]) => [k, round(v, 4)])),
    oneTabHour: {
      requests: Object.fromEntries(perTabHour.map(([k, v]) => [k, Number(v)])),
      functions: Object.fromEntries(
        Object.entries(hour.functions).map(([k, f]) => [
          k,
          {
            invocations: f.invocations / pages.length,
            meanRunMs: round(f.runMs / Math.max(1, f.invocations), 1),
            // Its DynamoDB requests by operation, per tab-hour: where the request units come from.
            table: Object.fromEntries(
              Object.entries(hour.tableRequests[k] ?? {}).map(([op, n]) => [op, round(n / pages.length, 2)]),
            ),
          },
        ]),
      ),
    },
    events: {
      textIn: { requests: textsIn.kinds, functions: textsIn.functions },
      textOut: { requests: repliesPart.kinds, functions: repliesPart.functions },
      call: { requests: callsPart.kinds, functions: callsPart.functions },
    },
    twilio: { lines: twilioLines.map((l) => ({ ...l, usd: round(l.usd, 4) })), totalUsd: round(twilioTotal, 2) },
    loadAverage: round(loadavg()[0] ?? 0, 1),
    cores: availableParallelism(),
    goalUsd: GOAL_USD,
    met: awsTotal <= GOAL_USD,
  });
  console.log(`Wrote bench/results/cost.json in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  exitCode = 0;
} finally {
  unsubscribe('undici:request:create', onCreate);
  unsubscribe('undici:request:headers', onHeaders);
  for (const context of contexts) await context.close().catch(() => {});
  await browser.close().catch(() => {});
  // The gateway runs $disconnect after the tabs are gone; the database must outlive those.
  const disconnects = async () => (await stack.functionStats())['realtime/disconnect']?.invocations ?? 0;
  for (let seen = -1, i = 0; i < 50; i++) {
    const now = await disconnects();
    if (now === seen) break;
    seen = now;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stack.stop();
}
process.exit(exitCode);
