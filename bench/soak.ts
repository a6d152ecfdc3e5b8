/**
 * `npm run soak`: the product under a working day's load for a minute, on loopback. Starts a local
 * stack in this process (the gateway and the emulators run here, each function in execution
 * environments of its own, worker threads of this process; DynamoDB Local in Java, the SES emulator
 * in a Node process of its own), signs up one company with a Twilio emulator account and a
 * voice+SMS number, invites the agents through the invitation API, and gives each agent a socket
 * (ticket flow) that beats every 30 s. Then, for SOAK_SECONDS: inbound texts at 10/s from 20 phones
 * (the emulator posts the signed webhooks), agents' replies at 2/s (the emulator's carrier posts
 * their status callbacks), every agent reading the conversation list and its open thread as the web
 * app does with its socket up (on arrival and on opening a conversation to answer it), and 5 inbound
 * calls a minute that ring an inbox of 5 agents, are answered by one and hung up. Reports to the
 * terminal and bench/results/soak.json: requests, errors, events lost (each new_message and
 * message_sent must reach every socket); latency percentiles of the agents' API calls, SMS → socket
 * delivery (its goal: p95 ≤ 100 ms), the inbound-text webhook and the status callbacks as
 * the Twilio emulator makes them (bench/lib/request-timing.ts), and the soak's POST of each inbound
 * text to the emulator; the CPU seconds per second of the load that each of the stack's processes
 * got, and their total (bench/lib/process-cpu.ts: DynamoDB Local's and the SES emulator's from
 * /proc, so Linux only); per function, the environments created, cold starts and their
 * initialisation, invocations, waits, throttles, timeouts, idle environments ended to make room and peak concurrency (the busiest in the
 * terminal, all in the JSON); and the peak memory of this process. Exits 1 on any error or lost
 * event. `SOAK_SECONDS=10 SOAK_AGENTS=5 npm run soak` for a quick run; `SOAK_TEXTS_PER_SECOND=20`
 * for a busy company's peak. The table's transaction conflicts are simulated as in AWS
 * (DYNAMODB_CONFLICTS=off to compare) and the run reports those it met.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance as nodePerformance } from 'node:perf_hooks';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import WebSocket from 'ws';
import { keys } from '../functions/lib/table';
import type { FunctionStats } from '../local/function-environments';
import {
  CONVERSATION_LIST_REFRESH_MS,
  INVITATION_MAIL_LIMIT,
  INVITATION_MAIL_WINDOW_SECONDS,
  MAX_TEXT_SEGMENTS_PER_HOUR,
  THREAD_FAST_REFRESH_MS,
  THREAD_FAST_REFRESH_WINDOW_MS,
  THREAD_REFRESH_MS,
} from '../shared/constants';
import { socketPath } from '../shared/contract/realtime-events';
import { type CompanySettings, companySettings, updateCallingSettings } from '../shared/contract/voice';
import { startTestStack } from '../test/support/test-stack';
import { pollingInterval } from '../web/src/lib/realtime/polling';
import { benchTable, localApi, percentile } from './lib/local-api';
import { resultsDir } from './lib/paths';
import { cpuPerSecond, mainThreadCpuSeconds, sampleCpu } from './lib/process-cpu';
import { printTable, round, writeJson } from './lib/report';
import { timeRequests } from './lib/request-timing';

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${process.env[name]}`);
  return value;
};
const SECONDS = positive('SOAK_SECONDS', 60);
const AGENTS = positive('SOAK_AGENTS', 50);
const PHONES = 20;
/** A busy company's peak is 10–30 texts a second; `SOAK_TEXTS_PER_SECOND` sets it. */
const INBOUND_PER_SECOND = positive('SOAK_TEXTS_PER_SECOND', 10);
const REPLIES_PER_SECOND = 2;
const CALLS_PER_MINUTE = 5;
/** Agents in the inbox the number rings (the owner first). */
const CALL_TAKERS = Math.min(5, AGENTS);
/**
 * The web app's reads (docs/product.md §9), by its own rule (pollingInterval): the agents' sockets stay
 * up, so the list and the thread are read when an agent opens them and then only at the reconciliation
 * interval, and a send brings no burst of thread reads.
 */
const HEARTBEAT_MS = 30_000;
const LIST_POLL_MS = Number(pollingInterval('connected', CONVERSATION_LIST_REFRESH_MS));
const THREAD_POLL_MS = Number(pollingInterval('connected', THREAD_REFRESH_MS));
const THREAD_POLL_AFTER_SEND_MS = Number(pollingInterval('connected', THREAD_FAST_REFRESH_MS));
const FAST_THREAD_FOR_MS = THREAD_FAST_REFRESH_WINDOW_MS;
/** Agents open the app (reading the list and a thread) at a random moment of the load's first minute. */
const ARRIVALS_MS = 60_000;
/**
 * After the load: events still in flight count as late (their latency shows it), not lost, while any
 * tracked event keeps arriving; once none has for DRAIN_MS (or after MAX_DRAIN_MS), the missing ones are lost.
 */
const DRAIN_MS = 15_000;
const MAX_DRAIN_MS = 180_000;
const PASSWORD = 'soak password 1';
/** SMS → socket delivery's p95 goal (ms) under the soak's load. */
const SMS_TO_SOCKET_P95_GOAL_MS = 100;
/** Functions in the printed table (the JSON has every one that ran). */
const BUSIEST_FUNCTIONS = 10;

const started = performance.now();
console.log(`Starting a local stack; ${AGENTS} agents for ${SECONDS} s on node ${process.version}...`);
const stack = await startTestStack({ web: false, label: 'soak' });
const { urls, env } = stack.provided;

// --- What is measured ---
const apiLatencies: number[] = [];
/** The emulator's POST /_emulator/messages until its answer, which waits for the product's answer to the webhook. */
const inboundPostLatencies: number[] = [];
// The webhooks themselves, timed at the emulator's own fetch in this process: the inbound-text webhook
// and the outbound messages' status callbacks (shared/contract/conversations.ts).
const apiOrigin = new URL(urls.api).origin;
const webhooks = timeRequests(({ origin, method, path }) => {
  if (method !== 'POST' || origin !== apiOrigin) return undefined;
  if (/^\/webhooks\/twilio\/[^/]+\/sms$/.test(path)) return 'inbound sms';
  if (/^\/webhooks\/twilio\/[^/]+\/sms\/status$/.test(path)) return 'sms status';
  return undefined;
});
const deliveryLatencies: number[] = [];
const requestsByKind = new Map<string, number>();
const errors: string[] = [];
let peakRss = 0;
let peakHeapUsed = 0;
const sampleMemory = () => {
  const { rss, heapUsed } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeapUsed = Math.max(peakHeapUsed, heapUsed);
};
const memoryTimer = setInterval(sampleMemory, 250);

const count = (kind: string) => requestsByKind.set(kind, (requestsByKind.get(kind) ?? 0) + 1);
const fail = (what: string) => {
  errors.push(what);
};

/** A product API call as the web app makes it; timed and counted once the load runs. */
async function call<T>(
  kind: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string; measured?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const t0 = performance.now();
  const res = await fetch(`${urls.api}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (init.measured) {
    apiLatencies.push(performance.now() - t0);
    count(kind);
  }
  if (!res.ok) throw new Error(`${kind} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** A control of the Twilio emulator: an outside phone texting or calling, a call answered or hung up. */
async function emulator<T>(path: string, body: unknown, expected: number): Promise<T> {
  const res = await fetch(`${urls.twilio}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const { mailedToken } = localApi(urls);

/** Runs `fn` over `items`, `limit` at a time. */
async function limited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i] as T, i);
      }
    }),
  );
}

interface Agent {
  userId: string;
  token: string;
  ws?: WebSocket;
  /** Tracked event (new_message/message_sent) body → when this socket had it. */
  heard: Map<string, number>;
  events: number;
  openConversation?: string;
  nextListAt: number;
  nextThreadAt: number;
  fastThreadUntil: number;
}

interface CallStory {
  twiml: { url: string; status: number | null }[];
  callbacks: { url: string; status: number | null }[];
}

interface EmulatorAccount {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { sms: boolean; voice: boolean } }[];
}

let pass = false;
const sockets: WebSocket[] = [];
let companyId: string | undefined;
try {
  // --- Setup (not measured) ---
  const ownerEmail = `soak-owner-${randomUUID().slice(0, 8)}@example.test`;
  await call('register', '/api/v1/auth/register', {
    body: { companyName: 'Soak Co', name: 'Soak Owner', email: ownerEmail, password: PASSWORD },
  });
  const verified = await call<{ user: { id: string; companyId: string }; tokens: { accessToken: string } }>(
    'verify',
    '/api/v1/auth/verify-email',
    // The link carries its token in the fragment; the web app posts it.
    { body: { token: await mailedToken(ownerEmail, /verify-email[?#]token=([\w-]+)/) } },
  );
  const company = verified.user.companyId;
  companyId = company;
  const ownerToken = verified.tokens.accessToken;

  // The load is the company's whole day in minutes: the owner raises its hourly texting limit as far
  // as it goes (docs/product.md: Sending limits); each agent stays far under their own.
  const { settings } = await call<{ settings: CompanySettings }>('settings', companySettings.path, { token: ownerToken });
  await call('calling', updateCallingSettings.path, {
    method: updateCallingSettings.method,
    token: ownerToken,
    body: {
      allowedCountries: settings.calling.allowedCountries,
      outboundCallsPerMinute: settings.calling.outboundCallsPerMinute,
      textSegmentsPerHour: MAX_TEXT_SEGMENTS_PER_HOUR,
    },
  });

  const twilio = await emulator<EmulatorAccount>('/_emulator/accounts', {}, 201);
  const number = twilio.numbers.find((n) => n.capabilities.sms && n.capabilities.voice);
  if (!number) throw new Error('the emulator account has no voice+SMS number');
  const { provider } = await call<{ provider: { id: string } }>('connect', '/api/v1/providers/twilio', {
    token: ownerToken,
    body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
  });
  const { channels } = await call<{ channels: { id: string; identifier: string }[] }>(
    'import',
    `/api/v1/providers/${provider.id}/import-channels`,
    {
      token: ownerToken,
      body: { numbers: [{ sid: number.sid, phoneNumber: number.phone_number, capabilities: { voice: true, sms: true } }] },
    },
  );
  const channel = channels[0];
  if (!channel) throw new Error('the import made no channel');

  // The agents join as people do: invited by mail, accepting the link. The invitation limit per company
  // and hour (a guard against mail abuse) is below the agent count, so the bench resets its counter.
  const table = benchTable(env);
  const agents: Agent[] = [{ userId: verified.user.id, token: ownerToken, heard: new Map(), events: 0 } as Agent];
  const emails = Array.from({ length: AGENTS - 1 }, (_, i) => `soak-agent-${i + 1}-${randomUUID().slice(0, 8)}@example.test`);
  for (let i = 0; i < emails.length; i += INVITATION_MAIL_LIMIT) {
    const window = Math.floor(Date.now() / 1000 / INVITATION_MAIL_WINDOW_SECONDS);
    await table.client.send(
      new DeleteCommand({ TableName: table.tableName, Key: keys.throttle('INVITE_COMPANY', company, window) }),
    );
    for (const email of emails.slice(i, i + INVITATION_MAIL_LIMIT)) {
      await call('invite', '/api/v1/invitations', { token: ownerToken, body: { email, role: 'AGENT' } });
    }
  }
  await limited(emails, 2, async (email, i) => {
    const accepted = await call<{ user: { id: string }; tokens: { accessToken: string } }>(
      'accept',
      '/api/v1/invitations/accept',
      {
        body: { token: await mailedToken(email, /accept-invite[?#]token=([\w-]+)/), name: `Agent ${i + 1}`, password: PASSWORD },
      },
    );
    agents.push({ userId: accepted.user.id, token: accepted.tokens.accessToken, heard: new Map(), events: 0 } as Agent);
  });

  const { inbox } = await call<{ inbox: { id: string } }>('inbox', '/api/v1/inboxes', {
    token: ownerToken,
    body: { name: 'Support' },
  });
  const takers = agents.slice(0, CALL_TAKERS);
  for (const taker of takers) {
    await call('member', `/api/v1/inboxes/${inbox.id}/members`, { token: ownerToken, body: { userId: taker.userId } });
  }
  await call('routing', `/api/v1/channels/${channel.id}/routing`, {
    method: 'PATCH',
    token: ownerToken,
    body: { routingType: 'INBOX', routingTargetId: inbox.id },
  });

  const conversations: string[] = [];
  const knownConversations = new Set<string>();
  let socketsClosedEarly = 0;
  let loadRunning = true;
  await limited(agents, 10, async (agent) => {
    const { ticket } = await call<{ ticket: string }>('ticket', '/api/v1/realtime/ticket', {
      method: 'POST',
      token: agent.token,
    });
    const query = new URLSearchParams({ ticket, userId: agent.userId, companyId: company });
    const ws = new WebSocket(`${urls.websocket.replace(/\/ws$/, '')}${socketPath(company)}?${query}`);
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString()) as {
        type: string;
        data: { conversationId?: string; message?: { body: string } };
      };
      agent.events++;
      if ((event.type === 'new_message' || event.type === 'message_sent') && event.data.message) {
        agent.heard.set(event.data.message.body, performance.now());
        const id = event.data.conversationId;
        if (id && !knownConversations.has(id)) {
          knownConversations.add(id);
          conversations.push(id);
        }
      }
    });
    ws.on('close', () => {
      if (loadRunning) socketsClosedEarly++;
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    agent.ws = ws;
    sockets.push(ws);
  });
  const callTakers = new Set(takers);
  const beat = (agent: Agent) => {
    agent.ws?.send(JSON.stringify({ type: 'heartbeat', data: { userId: agent.userId, timestamp: new Date().toISOString() } }));
    // A call taker's tab has its phone registered, and says so with each check-in, as the web app does:
    // an inbox with nobody reachable sends a call straight to voicemail (docs/product.md §10.5).
    if (callTakers.has(agent)) agent.ws?.send(JSON.stringify({ type: 'device_state', data: { registered: true } }));
  };
  for (const agent of agents) beat(agent);
  console.log(
    `Set up ${agents.length} agents with sockets in ${((performance.now() - started) / 1000).toFixed(1)} s; load for ${SECONDS} s...`,
  );

  // --- Load ---
  const functionsAtStart = await stack.functionStats();
  const cpuAtStart = sampleCpu(stack.processes);
  const mainThreadAtStart = {
    elu: nodePerformance.eventLoopUtilization(),
    cpu: mainThreadCpuSeconds(),
    at: performance.now(),
  };
  const loadStart = performance.now();
  const loadEnd = loadStart + SECONDS * 1000;
  const pending = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    const settled = p.catch((e: Error) => fail(e.message)).finally(() => pending.delete(settled));
    pending.add(settled);
  };
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, fn: () => void) => timers.push(setInterval(() => performance.now() < loadEnd && fn(), ms));
  /** Calls `fn` `perSecond` times a second on average: a late timer (a busy event loop) catches up, so the offered load holds. */
  const atRate = (perSecond: number, fn: () => void) => {
    let done = 0;
    every(20, () => {
      const due = Math.floor(((performance.now() - loadStart) / 1000) * perSecond) + 1;
      for (; done < due; done++) fn();
    });
  };
  const random = <T>(items: readonly T[]): T | undefined => items[randomInt(0, Math.max(1, items.length))];

  /** Bodies of the tracked events and when each was sent. */
  const published = new Map<string, { at: number; kind: 'new_message' | 'message_sent' }>();
  const phones = Array.from({ length: PHONES }, (_, i) => `+1202555${String(2000 + i)}`);

  let inboundSeq = 0;
  atRate(INBOUND_PER_SECOND, () => {
    const seq = inboundSeq++;
    const body = `soak inbound ${seq}`;
    const t0 = performance.now();
    published.set(body, { at: t0, kind: 'new_message' });
    count('inbound sms (emulator)');
    track(
      emulator<{ webhook: { status: number | null } | null }>(
        '/_emulator/messages',
        { from: phones[seq % PHONES], to: number.phone_number, body },
        201,
      ).then((answer) => {
        inboundPostLatencies.push(performance.now() - t0);
        if (answer.webhook?.status !== 200) fail(`inbound webhook for "${body}" answered ${answer.webhook?.status}`);
      }),
    );
  });

  let replySeq = 0;
  atRate(REPLIES_PER_SECOND, () => {
    const agent = random(agents);
    const conversationId = random(conversations);
    if (!agent || !conversationId) return;
    const body = `soak reply ${replySeq++}`;
    published.set(body, { at: performance.now(), kind: 'message_sent' });
    // Opening another conversation to answer it reads its thread.
    if (agent.openConversation !== conversationId) {
      track(call('thread', `/api/v1/conversations/${conversationId}`, { token: agent.token, measured: true }));
    }
    agent.openConversation = conversationId;
    agent.fastThreadUntil = performance.now() + FAST_THREAD_FOR_MS;
    agent.nextThreadAt = performance.now() + THREAD_POLL_AFTER_SEND_MS;
    track(
      call('send', `/api/v1/conversations/${conversationId}/messages`, { token: agent.token, body: { body }, measured: true }),
    );
  });

  // Each agent's web app: its first reads when the agent arrives, then at the rates above.
  for (const agent of agents) {
    agent.nextListAt = loadStart + randomInt(0, ARRIVALS_MS);
    agent.nextThreadAt = agent.nextListAt;
    agent.fastThreadUntil = 0;
    timers.push(setTimeout(() => timers.push(setInterval(() => beat(agent), HEARTBEAT_MS)), randomInt(0, HEARTBEAT_MS)));
  }
  every(100, () => {
    const now = performance.now();
    for (const agent of agents) {
      if (now >= agent.nextListAt) {
        agent.nextListAt += LIST_POLL_MS;
        track(call('list', '/api/v1/conversations?status=OPEN&limit=20&offset=0', { token: agent.token, measured: true }));
      }
      agent.openConversation ??= random(conversations);
      if (now >= agent.nextThreadAt && agent.openConversation) {
        agent.nextThreadAt = now + (now < agent.fastThreadUntil ? THREAD_POLL_AFTER_SEND_MS : THREAD_POLL_MS);
        track(call('thread', `/api/v1/conversations/${agent.openConversation}`, { token: agent.token, measured: true }));
      }
    }
  });

  let callSeq = 0;
  let callsCompleted = 0;
  const callSids: string[] = [];
  const placeCall = () => {
    const from = phones[callSeq++ % PHONES] as string;
    const taker = random(takers);
    if (!taker) return;
    count('inbound call (emulator)');
    track(
      (async () => {
        const ringing = await emulator<{ sid: string; legs: { status: string }[] }>(
          '/_emulator/calls',
          { from, to: number.phone_number },
          201,
        );
        callSids.push(ringing.sid);
        if (!ringing.legs.some((l) => l.status === 'ringing')) throw new Error(`call ${ringing.sid} rang nobody`);
        await new Promise((r) => setTimeout(r, 1000));
        await emulator(`/_emulator/calls/${ringing.sid}/answer`, { by: `client:user_${taker.userId.replaceAll('-', '_')}` }, 200);
        await new Promise((r) => setTimeout(r, 3000));
        const ended = await emulator<{ status: string }>(`/_emulator/calls/${ringing.sid}/hangup`, {}, 200);
        if (ended.status !== 'completed') throw new Error(`call ${ringing.sid} ended ${ended.status}`);
        callsCompleted++;
      })(),
    );
  };
  atRate(CALLS_PER_MINUTE / 60, placeCall);

  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  // Seconds of CPU each of the stack's processes got per second of the load: 2 would be both cores.
  // The main thread carries the gateway, the DynamoDB proxy, the emulators and the agents' sockets: near 1, it is the bottleneck.
  const mainThreadBusy = round(nodePerformance.eventLoopUtilization(mainThreadAtStart.elu).utilization, 2);
  const mainThreadCpuAtEnd = mainThreadCpuSeconds();
  const mainThreadCpu =
    mainThreadAtStart.cpu === null || mainThreadCpuAtEnd === null
      ? null
      : round((mainThreadCpuAtEnd - mainThreadAtStart.cpu) / ((performance.now() - mainThreadAtStart.at) / 1000), 2);
  const cpu = Object.fromEntries(
    Object.entries(cpuPerSecond(cpuAtStart, sampleCpu(stack.processes))).map(([name, v]) => [
      name,
      v === null ? null : round(v, 2),
    ]),
  ) as Record<'thisProcess' | 'dynamodb' | 'ses' | 'total', number | null>;
  for (const t of timers) clearInterval(t);
  while (pending.size > 0) await Promise.race(pending);

  // --- Events still in flight, then the count ---
  const missing = () => [...published.keys()].reduce((n, body) => n + agents.filter((a) => !a.heard.has(body)).length, 0);
  const drainStart = performance.now();
  let lastProgress = drainStart;
  for (let before = missing(); before > 0; ) {
    if (performance.now() - lastProgress > DRAIN_MS || performance.now() - drainStart > MAX_DRAIN_MS) break;
    await new Promise((r) => setTimeout(r, 100));
    const now = missing();
    if (now < before) lastProgress = performance.now();
    before = now;
  }
  const drainSeconds = round((performance.now() - drainStart) / 1000, 1);
  loadRunning = false;
  const lost = { new_message: 0, message_sent: 0 };
  for (const [body, { at, kind }] of published) {
    for (const agent of agents) {
      const heardAt = agent.heard.get(body);
      if (heardAt === undefined) lost[kind]++;
      else if (kind === 'new_message') deliveryLatencies.push(heardAt - at);
    }
  }
  if (socketsClosedEarly > 0) fail(`${socketsClosedEarly} sockets closed during the run`);

  // Every webhook the emulator posted (inbound texts, status callbacks, call TwiML and callbacks) and what it got.
  const state = (await (await fetch(`${urls.twilio}/_emulator/accounts/${twilio.accountSid}`)).json()) as {
    messages: {
      direction: string;
      status: string;
      callbacks: { status: number | null }[];
      webhooks: { status: number | null }[];
    }[];
  };
  const outbound = state.messages.filter((m) => m.direction === 'outbound-api');
  const statusCallbacks = outbound.flatMap((m) => m.callbacks);
  const failedCallbacks = statusCallbacks.filter((c) => c.status !== 200).length;
  if (failedCallbacks > 0) fail(`${failedCallbacks} status callbacks were not answered 200`);
  let callWebhooks = 0;
  for (const sid of callSids) {
    const story = (await (await fetch(`${urls.twilio}/_emulator/calls/${sid}`)).json()) as CallStory & { legs: CallStory[] };
    for (const leg of [story, ...story.legs]) {
      for (const request of [...leg.twiml, ...leg.callbacks]) {
        callWebhooks++;
        if (request.status !== 200) fail(`call ${sid}: ${request.url} answered ${request.status}`);
      }
    }
  }

  sampleMemory();
  const functions = functionRows(await stack.functionStats(), functionsAtStart);
  const totalRequests = [...requestsByKind.values()].reduce((a, b) => a + b, 0) + statusCallbacks.length + callWebhooks;
  const apiStats = stats(apiLatencies);
  const deliveryStats = stats(deliveryLatencies);
  const webhookStats = stats(webhooks.samples('inbound sms'));
  const statusCallbackStats = stats(webhooks.samples('sms status'));
  const inboundPostStats = stats(inboundPostLatencies);
  const lostTotal = lost.new_message + lost.message_sent;
  pass = errors.length === 0 && lostTotal === 0;
  const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

  console.log('');
  printTable(
    ['requests', 'errors', 'events lost', 'texts in', 'replies', 'callbacks', 'calls', 'peak RSS MB', 'peak heap MB'],
    [
      [
        String(totalRequests),
        String(errors.length),
        String(lostTotal),
        String(inboundSeq),
        String(replySeq),
        String(statusCallbacks.length),
        `${callsCompleted}/${callSeq}`,
        mb(peakRss).toFixed(1),
        mb(peakHeapUsed).toFixed(1),
      ],
    ],
    [0, 1, 2, 3, 4, 5, 7, 8],
  );
  console.log('');
  printTable(
    ['latency (ms)', 'samples', 'p50', 'p95', 'p99', 'max'],
    [
      ['API (agents)', ...statRow(apiStats)],
      ['SMS → socket', ...statRow(deliveryStats)],
      ['inbound webhook', ...statRow(webhookStats)],
      ['status callback', ...statRow(statusCallbackStats)],
      ['inbound text POST', ...statRow(inboundPostStats)],
    ],
    [1, 2, 3, 4, 5],
  );
  console.log(
    `SMS → socket p95 ${deliveryStats.p95.toFixed(1)} ms (goal ≤ ${SMS_TO_SOCKET_P95_GOAL_MS} ms: ${deliveryStats.p95 <= SMS_TO_SOCKET_P95_GOAL_MS ? 'met' : 'not met'}).`,
  );
  console.log('');
  if (functions.rows.length === 0) {
    console.log('Functions: none in environments of their own (LOCAL_FUNCTIONS=in-process).');
  } else {
    printTable(
      [
        'function',
        'invocations',
        'envs',
        'in load',
        'cold starts',
        'init p50',
        'init max',
        'queued',
        'throttled',
        'timeouts',
        'peak conc.',
        'wait mean',
        'run mean',
      ],
      [...functions.rows]
        .sort((a, b) => b.invocations - a.invocations)
        .slice(0, BUSIEST_FUNCTIONS)
        .map((f) => [
          f.name,
          String(f.invocations),
          String(f.environments),
          String(f.environmentsDuringLoad),
          String(f.coldStarts.count),
          wholeMs(f.coldStarts.initMsMedian),
          wholeMs(f.coldStarts.initMsMax),
          String(f.queued),
          String(f.throttled),
          String(f.timeouts),
          String(f.peakConcurrency),
          wholeMs(f.meanWaitMs),
          wholeMs(f.meanRunMs),
        ]),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    const t = functions.totals;
    console.log(
      `${t.functions} functions ran (the ${Math.min(BUSIEST_FUNCTIONS, t.functions)} busiest above): ${t.environments} environments created (${t.environmentsDuringLoad} during the load), ${t.coldStarts} cold starts (init p50 ${wholeMs(t.initMsMedian)} ms, max ${wholeMs(t.initMsMax)} ms), ${t.invocations} invocations, ${t.queued} queued, ${t.throttled} throttled, ${t.timeouts} timeouts; ${t.evicted} idle environments ended to make room for another function's, ${t.liveAtEnd} live at the end.`,
    );
  }
  // What the run asked of the table, and the transaction conflicts it met (local/dynamodb-proxy.ts).
  const tableStats = (await (await fetch(`${urls.dynamodb}/_local/stats`)).json()) as {
    transactionConflicts: number;
    requests: Record<string, number>;
    upstream: { inFlightPeak: number; ms: Record<string, { count: number; total: number }> };
  };
  const upstream = Object.values(tableStats.upstream.ms);
  const upstreamMeanMs =
    upstream.reduce((n, o) => n + o.total, 0) /
    Math.max(
      1,
      upstream.reduce((n, o) => n + o.count, 0),
    );
  console.log(
    `\nDynamoDB: ${Object.values(tableStats.requests).reduce((a, b) => a + b, 0)} requests, ${tableStats.transactionConflicts} transaction conflicts met (conflicts ${process.env.DYNAMODB_CONFLICTS === 'off' ? 'off' : 'on'}); DynamoDB Local answered in ${upstreamMeanMs.toFixed(1)} ms on average, at most ${tableStats.upstream.inFlightPeak} requests in flight.`,
  );
  for (const e of errors.slice(0, 10)) console.log(`error: ${e}`);
  console.log(`\nGoal: 0 errors, 0 lost events. ${pass ? 'pass' : 'FAIL'}`);
  console.log(`Events in flight after the load settled in ${drainSeconds} s.`);
  const cpuText = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
  console.log(
    `CPU s/s during the load: ${cpuText(cpu.total)} in all (this process with the gateway, emulators and function environments ${cpuText(cpu.thisProcess)}, DynamoDB Local ${cpuText(cpu.dynamodb)}, SES emulator ${cpuText(cpu.ses)}); this process's main thread ${cpuText(mainThreadCpu)} of it, busy ${mainThreadBusy.toFixed(2)} of the time; load average (1 min) at the end ${loadavg()[0]?.toFixed(2)} on ${availableParallelism()} cores.`,
  );

  await writeJson(join(resultsDir, 'soak.json'), {
    date: new Date().toISOString(),
    node: process.version,
    seconds: SECONDS,
    agents: agents.length,
    load: {
      inboundPerSecond: INBOUND_PER_SECOND,
      phones: PHONES,
      repliesPerSecond: REPLIES_PER_SECOND,
      callsPerMinute: CALLS_PER_MINUTE,
      callTakers: CALL_TAKERS,
      heartbeatSeconds: HEARTBEAT_MS / 1000,
      listPollSeconds: LIST_POLL_MS / 1000,
      threadPollSeconds: THREAD_POLL_MS / 1000,
      threadPollAfterSendSeconds: THREAD_POLL_AFTER_SEND_MS / 1000,
    },
    requests: {
      total: totalRequests,
      ...Object.fromEntries(requestsByKind),
      'status callbacks': statusCallbacks.length,
      'call webhooks': callWebhooks,
    },
    errors: errors.length,
    errorKinds: errorKinds(errors),
    errorSamples: errors.slice(0, 10),
    textsIn: inboundSeq,
    replies: replySeq,
    calls: { placed: callSeq, completed: callsCompleted },
    conversations: conversations.length,
    eventsLost: { total: lostTotal, ...lost },
    eventsExpected: published.size * agents.length,
    drainSeconds,
    table: { conflictsSimulated: process.env.DYNAMODB_CONFLICTS !== 'off', ...tableStats },
    eventsReceived: agents.reduce((n, a) => n + a.events, 0),
    measured: {
      apiLatencyMs: 'agents’ API calls (list, thread, send) through the local gateway, request until the whole answer',
      smsToSocketMs: 'emulator POST of an inbound text (Twilio posting the signed webhook) until new_message on each socket',
      inboundWebhookMs:
        'the inbound-text webhook as the emulator makes it: its fetch’s request created until the last byte of the product’s answer (unanswered ones: until the emulator gave up, at 15 s)',
      statusCallbackMs: 'the outbound messages’ status callbacks, timed the same way',
      inboundTextPostMs: 'the soak’s POST /_emulator/messages until its answer, which waits for the webhook’s answer',
      mainThreadBusy:
        'the share of the load’s time this process’s main thread (gateway, emulators, the agents’ sockets) was not waiting for events (performance.eventLoopUtilization; on a busy machine, also while waiting for a core)',
      mainThreadCpuSecondsPerSecond: 'the CPU seconds per wall second the main thread got (/proc/<pid>/task/<pid>/stat; Linux)',
      cpuSecondsPerSecond:
        'CPU seconds per wall second during the load: this process by process.cpuUsage (all its threads), DynamoDB Local’s java and the SES emulator from /proc/<pid>/stat (Linux; null elsewhere)',
      functions:
        'each function’s execution environments since the stack started (local/function-environments.ts); environmentsDuringLoad from the load’s start until the events settled; meanWaitMs and meanRunMs over the invocations of that time (waiting for an environment, running in one)',
      table:
        'the local DynamoDB endpoint’s counts since the stack started (local/dynamodb-proxy.ts): requests by operation and by calling function, and DynamoDB Local’s time per operation',
    },
    apiLatencyMs: apiStats,
    smsToSocketMs: deliveryStats,
    smsToSocketGoalMs: { p95: SMS_TO_SOCKET_P95_GOAL_MS, met: deliveryStats.p95 <= SMS_TO_SOCKET_P95_GOAL_MS },
    inboundWebhookMs: { ...webhookStats, unanswered: webhooks.failed('inbound sms') },
    statusCallbackMs: { ...statusCallbackStats, unanswered: webhooks.failed('sms status') },
    inboundTextPostMs: inboundPostStats,
    // This process hosts the gateway, the emulators, every function's environments (worker threads) and the simulated agents.
    peakMemoryMb: { rss: mb(peakRss), heapUsed: mb(peakHeapUsed) },
    loadAverage: round(loadavg()[0] ?? 0, 2),
    cores: availableParallelism(),
    cpuSecondsPerSecond: cpu,
    mainThreadBusy,
    mainThreadCpuSecondsPerSecond: mainThreadCpu,
    functions: {
      totals: functions.totals,
      byFunction: Object.fromEntries(functions.rows.map(({ name, ...row }) => [name, row])),
    },
    pass,
  });
  console.log(`Wrote bench/results/soak.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  clearInterval(memoryTimer);
  webhooks.stop();
  // Twilio's carrier would go on with status callbacks into a stopping stack (and its handlers log the
  // gateway gone); the emulator's fault switch drops them from here.
  await fetch(`${urls.twilio}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhooks: { drop: 1_000_000 } }),
  });
  // Closed before the stack stops, so that no $disconnect runs against a stopped database.
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve(undefined);
          ws.once('close', resolve);
          ws.close();
        }),
    ),
  );
  // The gateway runs $disconnect after the client saw the close; the database must outlive those.
  if (companyId) {
    Object.assign(process.env, env);
    const { listConnections } = await import('../functions/realtime/connections');
    const until = performance.now() + MAX_DRAIN_MS;
    while ((await listConnections(companyId)).length > 0 && performance.now() < until)
      await new Promise((r) => setTimeout(r, 100));
  }
  await stack.stop();
}
process.exit(pass ? 0 : 1);

/** Errors counted by what they say, with the numbers, quotes and ids that differ between them left out. */
function errorKinds(list: readonly string[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const e of list) {
    const kind = e
      .replace(/"[^"]*"/g, '"…"')
      .replace(/[0-9a-f]{8}-[0-9a-f-]{27}|[A-Z]{2}[0-9a-f]{32}|\d+/g, 'N')
      .slice(0, 160);
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

function stats(samples: readonly number[]) {
  return {
    samples: samples.length,
    p50: round(percentile(samples, 50), 1),
    p95: round(percentile(samples, 95), 1),
    p99: round(percentile(samples, 99), 1),
    max: round(samples.length ? Math.max(...samples) : Number.NaN, 1),
  };
}

/**
 * Each function that ran: its environments (each a cold start; `environmentsDuringLoad` those created
 * since `atStart`), its cold starts' initialisation, and how its invocations fared; and the totals.
 */
function functionRows(byName: Record<string, FunctionStats>, atStart: Record<string, FunctionStats>) {
  const rows = Object.entries(byName).map(([name, f]) => ({
    name,
    invocations: f.invocations,
    environments: f.environments,
    environmentsDuringLoad: f.environments - (atStart[name]?.environments ?? 0),
    live: f.live,
    coldStarts: {
      count: f.initMs.length,
      initMsMedian: round(percentile(f.initMs, 50), 0),
      initMsMax: round(f.initMs.length ? Math.max(...f.initMs) : Number.NaN, 0),
    },
    queued: f.queued,
    throttled: f.throttled,
    evicted: f.evicted,
    timeouts: f.timeouts,
    peakConcurrency: f.peakConcurrency,
    // Means over the load's invocations (since `atStart`): waiting for an environment, running in one.
    ...(() => {
      const during = f.invocations - (atStart[name]?.invocations ?? 0);
      const mean = (total: number, before = 0) => (during ? round((total - before) / during, 1) : Number.NaN);
      return { meanWaitMs: mean(f.waitMs, atStart[name]?.waitMs), meanRunMs: mean(f.runMs, atStart[name]?.runMs) };
    })(),
  }));
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const inits = Object.values(byName).flatMap((f) => f.initMs);
  return {
    rows,
    totals: {
      functions: rows.length,
      environments: sum((r) => r.environments),
      environmentsDuringLoad: sum((r) => r.environmentsDuringLoad),
      coldStarts: inits.length,
      initMsMedian: round(percentile(inits, 50), 0),
      initMsMax: round(inits.length ? Math.max(...inits) : Number.NaN, 0),
      invocations: sum((r) => r.invocations),
      queued: sum((r) => r.queued),
      throttled: sum((r) => r.throttled),
      evicted: sum((r) => r.evicted),
      liveAtEnd: sum((r) => r.live),
      timeouts: sum((r) => r.timeouts),
    },
  };
}

function wholeMs(ms: number): string {
  return Number.isFinite(ms) ? ms.toFixed(0) : '-';
}

function statRow(s: ReturnType<typeof stats>): string[] {
  return [String(s.samples), s.p50.toFixed(1), s.p95.toFixed(1), s.p99.toFixed(1), s.max.toFixed(1)];
}
