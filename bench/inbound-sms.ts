/**
 * `npm run bench`: an inbound text until the company's open socket hears it. Starts a local stack,
 * signs up one company, connects an account of the Twilio emulator and imports its number, opens
 * one socket, then posts Twilio's signed inbound-SMS webhook (one text at a time, from 20 phones in
 * turn, so some texts create a contact and a conversation and most append) and measures the time
 * from the post until `new_message` arrives on the socket. Writes bench/results/inbound-sms.json;
 * exits 1 when the p95 is over the goal. `BENCH_RUNS=20 npm run bench` for a quick run.
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { twilioSignature } from '@switchboard/twilio-emulator/signature';
import WebSocket from 'ws';
import { socketPath } from '../shared/contract/realtime-events';
import { inboundParams } from '../test/support/sms-webhook';
import { startTestStack } from '../test/support/test-stack';
import { median } from './lib/import-time';
import { localApi, percentile } from './lib/local-api';
import { resultsDir } from './lib/paths';
import { printTable, round, writeJson } from './lib/report';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 10;
const PHONES = 20;
const GOAL_P95_MS = 100;

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${process.env.BENCH_RUNS}`);

const started = performance.now();
console.log(`Starting a local stack; ${RUNS} inbound texts on node ${process.version}...`);
const stack = await startTestStack({ web: false, label: 'bench' });
const { urls } = stack.provided;
const { signUp, call } = localApi(urls);

interface EmulatorAccount {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { sms: boolean; voice: boolean } }[];
}

/** A company with an SMS channel; answers the number and the SmsUrl its import gave it in Twilio. */
async function smsChannel(accessToken: string) {
  const twilio = (await (
    await fetch(`${urls.twilio}/_emulator/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
  ).json()) as EmulatorAccount;
  const number = twilio.numbers.find((n) => n.capabilities.sms && n.capabilities.voice);
  if (!number) throw new Error('the emulator account has no voice+SMS number');
  const { provider } = await call<{ provider: { id: string } }>('/api/v1/providers/twilio', {
    token: accessToken,
    body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
  });
  await call(`/api/v1/providers/${provider.id}/import-channels`, {
    token: accessToken,
    body: { numbers: [{ sid: number.sid, phoneNumber: number.phone_number, capabilities: { voice: true, sms: true } }] },
  });
  const res = await fetch(`${urls.twilio}/2010-04-01/Accounts/${twilio.accountSid}/IncomingPhoneNumbers/${number.sid}.json`, {
    headers: { authorization: `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}` },
  });
  const { sms_url } = (await res.json()) as { sms_url: string };
  return { twilio, to: number.phone_number, smsUrl: sms_url };
}

let pass = false;
try {
  const account = await signUp();
  const { twilio, to, smsUrl } = await smsChannel(account.accessToken);
  const { ticket } = await call<{ ticket: string }>('/api/v1/realtime/ticket', { token: account.accessToken });
  const query = new URLSearchParams({ ticket, userId: account.userId, companyId: account.companyId });
  const ws = new WebSocket(`${urls.websocket.replace(/\/ws$/, '')}${socketPath(account.companyId)}?${query}`);
  const waiting = new Map<string, (at: number) => void>();
  ws.on('message', (data) => {
    const event = JSON.parse(data.toString()) as { type: string; data: { message?: { body: string } } };
    if (event.type === 'new_message' && event.data.message) waiting.get(event.data.message.body)?.(performance.now());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });

  const phones = Array.from({ length: PHONES }, (_, i) => `+1202555${String(1000 + i)}`);
  /** Posts text `seq` as Twilio would and answers the milliseconds until the socket has it. */
  const measureOne = async (seq: number): Promise<number> => {
    const body = `bench text ${seq}`;
    const params = inboundParams(
      { twilio, channel: { identifier: to } },
      { from: phones[Math.abs(seq) % PHONES] as string, body },
    );
    const heard = new Promise<number>((resolve) => waiting.set(body, resolve));
    const t0 = performance.now();
    const res = await fetch(smsUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(twilio.authToken, smsUrl, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    if (res.status !== 200) throw new Error(`text ${seq}: the webhook answered ${res.status} ${await res.text()}`);
    const at = await heard;
    waiting.delete(body);
    return at - t0;
  };

  for (let i = 0; i < WARM_UP; i++) await measureOne(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    samples.push(await measureOne(i));
    if (process.stdout.isTTY) process.stdout.write(`\r  text ${i + 1}/${RUNS}${i + 1 === RUNS ? '\n' : ''}`);
  }
  // Closed before the stack stops, so that no $disconnect runs against a stopped database.
  await new Promise((resolve) => {
    ws.once('close', resolve);
    ws.close();
  });

  const medianMs = round(median(samples), 1);
  const p95Ms = round(percentile(samples, 95), 1);
  const maxMs = round(Math.max(...samples), 1);
  pass = p95Ms <= GOAL_P95_MS;
  printTable(
    ['texts', 'phones', 'median ms', 'p95 ms', 'max ms', 'goal'],
    [[String(RUNS), String(PHONES), medianMs.toFixed(1), p95Ms.toFixed(1), maxMs.toFixed(1), pass ? 'pass' : 'FAIL']],
    [0, 1, 2, 3, 4],
  );
  console.log(`\nGoal: p95 <= ${GOAL_P95_MS} ms from the signed webhook post until new_message on the company's socket.`);
  console.log(`Load average (1 min) at the end: ${loadavg()[0]?.toFixed(2)} on ${availableParallelism()} cores.`);
  await writeJson(join(resultsDir, 'inbound-sms.json'), {
    date: new Date().toISOString(),
    node: process.version,
    runs: RUNS,
    warmUp: WARM_UP,
    phones: PHONES,
    measured: "signed inbound-SMS webhook post until new_message on the company's open socket, through the local gateway",
    // Other work on the machine slows DynamoDB Local most: the 1-minute load average when the runs ended.
    loadAverage: round(loadavg()[0] ?? 0, 2),
    goalP95Ms: GOAL_P95_MS,
    medianMs,
    p95Ms,
    maxMs,
    pass,
  });
  console.log(`Wrote bench/results/inbound-sms.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await stack.stop();
}
process.exit(pass ? 0 : 1);
