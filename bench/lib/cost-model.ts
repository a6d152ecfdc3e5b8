import type { AwsPrices, TwilioPrices } from '../aws-prices';

/**
 * The arithmetic of `npm run cost` (bench/cost.ts), kept pure: what one part of the simulated day
 * used (a `Usage`), how the parts add up to one active company-month, and what AWS and Twilio charge
 * for it at the prices of bench/aws-prices.ts.
 */
export interface Usage {
  /** Requests through CloudFront: every API call, webhook and socket upgrade. */
  cloudFrontRequests: number;
  /** Bytes CloudFront sends to viewers (answers, socket frames to the browser, TwiML to Twilio). */
  cloudFrontBytesOut: number;
  /** Bytes CloudFront sends on to the origin (request bodies, socket frames from the browser). */
  cloudFrontBytesToOrigin: number;
  /** HTTP API requests, in its 512 KB metering increments. */
  httpApiRequests: number;
  /** WebSocket messages both ways, in their 32 KB metering increments. */
  socketMessages: number;
  socketConnectionMinutes: number;
  lambdaInvocations: number;
  lambdaGbSeconds: number;
  dynamoReadUnits: number;
  dynamoWriteUnits: number;
  secretsManagerCalls: number;
  kmsRequests: number;
  sesMails: number;
  /** Log events written to CloudWatch Logs: access-log lines of both APIs, and Lambda's own lines per invocation. */
  logEvents: number;
  /** Their bytes, as ingestion bills them (without the per-event overhead, which awsBill adds). */
  logBytes: number;
}

export const USAGE_KEYS = [
  'cloudFrontRequests',
  'cloudFrontBytesOut',
  'cloudFrontBytesToOrigin',
  'httpApiRequests',
  'socketMessages',
  'socketConnectionMinutes',
  'lambdaInvocations',
  'lambdaGbSeconds',
  'dynamoReadUnits',
  'dynamoWriteUnits',
  'secretsManagerCalls',
  'kmsRequests',
  'sesMails',
  'logEvents',
  'logBytes',
] as const satisfies readonly (keyof Usage)[];

/** What CloudWatch Logs stores of a GB ingested (it bills storage compressed). */
export const LOG_COMPRESSION = 0.15;

/**
 * The bytes of one log event, as the stack's formats write them with a request's usual values: the
 * HTTP API's access-log line (infra/constructs/http-api.ts, 15 fields with a browser's user agent),
 * the WebSocket API's (realtime-api.ts), and Lambda's own JSON lines of an invocation
 * (`platform.start` and `platform.report`; the app's own lines are few, errors and refusals).
 */
export const LOG_EVENT_BYTES = { httpAccess: 560, socketAccess: 380, lambdaPerInvocation: 520 } as const;
export const LOG_EVENTS_PER_INVOCATION = 2;

/** The log events and bytes of some requests, socket events and invocations. */
export function logUsage(httpRequests: number, socketEvents: number, invocations: number): Pick<Usage, 'logEvents' | 'logBytes'> {
  return {
    logEvents: httpRequests + socketEvents + invocations * LOG_EVENTS_PER_INVOCATION,
    logBytes:
      httpRequests * LOG_EVENT_BYTES.httpAccess +
      socketEvents * LOG_EVENT_BYTES.socketAccess +
      invocations * LOG_EVENT_BYTES.lambdaPerInvocation,
  };
}

export const noUsage = (): Usage => Object.fromEntries(USAGE_KEYS.map((k) => [k, 0])) as unknown as Usage;

export function addUsage(...parts: Usage[]): Usage {
  const sum = noUsage();
  for (const part of parts) for (const k of USAGE_KEYS) sum[k] += part[k];
  return sum;
}

export function scaleUsage(usage: Usage, factor: number): Usage {
  const out = noUsage();
  for (const k of USAGE_KEYS) out[k] = usage[k] * factor;
  return out;
}

/**
 * `usage` less `baseline` item by item, never below zero: what an event added on top of what the open
 * tabs do anyway in the same time (the baseline's rate times the event's share of the clock).
 */
export function usageAbove(usage: Usage, baseline: Usage): Usage {
  const out = noUsage();
  for (const k of USAGE_KEYS) out[k] = Math.max(0, usage[k] - baseline[k]);
  return out;
}

/** Metering units of a message of `bytes` (API Gateway counts each started increment; an empty one is one). */
export const meteredUnits = (bytes: number, incrementBytes: number) => Math.max(1, Math.ceil(bytes / incrementBytes));

/** Lambda's GB-seconds for `ms` of billed duration at `memoryMib`. */
export const gbSeconds = (ms: number, memoryMib: number) => (ms / 1000) * (memoryMib / 1024);

/** One active company-month: agents with one tab each, their working hours, and the month's traffic. */
export interface CompanyMonth {
  agents: number;
  hoursPerDay: number;
  days: number;
  textsIn: number;
  textsOut: number;
  calls: number;
  /** Average length of an answered call (Twilio bills by the minute). */
  callMinutes: number;
  /** Twilio numbers the company keeps. */
  numbers: number;
  /** Minutes between two scheduled health checks of each number (ChannelHealthIntervalMinutes), all month round. */
  healthCheckMinutes: number;
  /** Days the schedule runs in the month (every day, not only working days). */
  calendarDays: number;
}

export const ACTIVE_COMPANY_MONTH: CompanyMonth = {
  agents: 3,
  hoursPerDay: 8,
  days: 22,
  textsIn: 1000,
  textsOut: 1000,
  calls: 200,
  callMinutes: 3,
  numbers: 1,
  healthCheckMinutes: 60,
  calendarDays: 30,
};

/** What the bench measured, each part per one of its own: a sign-in, a tab's hour, a text, a call. */
export interface MeasuredParts {
  /** An agent signing in and opening the Conversations page (once a working day). */
  signIn: Usage;
  /** One tab open for an hour with nothing happening but what the web app does by itself. */
  tabHour: Usage;
  /** What one inbound text adds (its webhook, the events, what the tabs do about it). */
  textIn: Usage;
  /** What one reply sent from the thread adds (the send, its status callbacks, the events, the tabs' reads). */
  textOut: Usage;
  /** What one inbound call answered in the browser adds. */
  call: Usage;
  /** One scheduled health check of one number (the channel-health sweep). */
  healthCheck: Usage;
}

/** The parts of one company-month, each already multiplied by how often it happens. */
export function companyMonthUsage(parts: MeasuredParts, month: CompanyMonth): Record<keyof MeasuredParts, Usage> {
  return {
    signIn: scaleUsage(parts.signIn, month.agents * month.days),
    tabHour: scaleUsage(parts.tabHour, month.agents * month.hoursPerDay * month.days),
    textIn: scaleUsage(parts.textIn, month.textsIn),
    textOut: scaleUsage(parts.textOut, month.textsOut),
    call: scaleUsage(parts.call, month.calls),
    healthCheck: scaleUsage(parts.healthCheck, month.numbers * month.calendarDays * ((24 * 60) / month.healthCheckMinutes)),
  };
}

export interface PriceLine {
  service: string;
  item: string;
  quantity: number;
  unit: string;
  usd: number;
}

const GB = 1024 ** 3;

/** The AWS bill for `usage`, one line per billed item. */
export function awsBill(usage: Usage, prices: AwsPrices): PriceLine[] {
  const perMillion = (n: number, price: number) => (n / 1e6) * price;
  const line = (service: string, item: string, quantity: number, unit: string, usd: number): PriceLine => ({
    service,
    item,
    quantity,
    unit,
    usd,
  });
  const { cloudFront: cf, apiGateway: api, lambda, dynamoDb: ddb } = prices;
  return [
    line(
      'CloudFront',
      'requests',
      usage.cloudFrontRequests,
      'requests',
      perMillion(usage.cloudFrontRequests, cf.requestsPerMillion),
    ),
    line('CloudFront', 'data out', usage.cloudFrontBytesOut / GB, 'GB', (usage.cloudFrontBytesOut / GB) * cf.dataOutPerGb),
    line(
      'CloudFront',
      'data to origin',
      usage.cloudFrontBytesToOrigin / GB,
      'GB',
      (usage.cloudFrontBytesToOrigin / GB) * cf.dataToOriginPerGb,
    ),
    line(
      'API Gateway',
      'HTTP API requests',
      usage.httpApiRequests,
      'requests',
      perMillion(usage.httpApiRequests, api.httpRequestsPerMillion),
    ),
    line(
      'API Gateway',
      'WebSocket messages',
      usage.socketMessages,
      'messages',
      perMillion(usage.socketMessages, api.socketMessagesPerMillion),
    ),
    line(
      'API Gateway',
      'WebSocket connection minutes',
      usage.socketConnectionMinutes,
      'minutes',
      perMillion(usage.socketConnectionMinutes, api.socketConnectionMinutesPerMillion),
    ),
    line(
      'Lambda',
      'invocations',
      usage.lambdaInvocations,
      'requests',
      perMillion(usage.lambdaInvocations, lambda.requestsPerMillion),
    ),
    line('Lambda', 'duration (arm64)', usage.lambdaGbSeconds, 'GB-s', usage.lambdaGbSeconds * lambda.armGbSecond),
    line(
      'DynamoDB',
      'read request units',
      usage.dynamoReadUnits,
      'RRU',
      perMillion(usage.dynamoReadUnits, ddb.readRequestUnitsPerMillion),
    ),
    line(
      'DynamoDB',
      'write request units',
      usage.dynamoWriteUnits,
      'WRU',
      perMillion(usage.dynamoWriteUnits, ddb.writeRequestUnitsPerMillion),
    ),
    line(
      'Secrets Manager',
      'API calls',
      usage.secretsManagerCalls,
      'calls',
      perMillion(usage.secretsManagerCalls, prices.secretsManager.apiCallsPerMillion),
    ),
    line('KMS', 'requests', usage.kmsRequests, 'requests', perMillion(usage.kmsRequests, prices.kms.requestsPerMillion)),
    line('SES', 'mails', usage.sesMails, 'mails', (usage.sesMails / 1000) * prices.ses.mailsPerThousand),
    (() => {
      const logs = prices.cloudWatchLogs;
      const gb = (usage.logBytes + usage.logEvents * logs.eventOverheadBytes) / GB;
      // Ingested once; kept compressed about a month (LOG_COMPRESSION).
      return line(
        'CloudWatch Logs',
        'ingested',
        gb,
        'GB',
        gb * logs.ingestedPerGb + gb * LOG_COMPRESSION * logs.storedPerGbMonth,
      );
    })(),
  ];
}

/** The same month in Twilio at list prices: the numbers, the texts both ways, the calls' minutes. */
export function twilioBill(month: CompanyMonth, prices: TwilioPrices, segmentsPerText = 1): PriceLine[] {
  const callMinutes = month.calls * month.callMinutes;
  return [
    {
      service: 'Twilio',
      item: 'local numbers',
      quantity: month.numbers,
      unit: 'numbers',
      usd: month.numbers * prices.localNumberPerMonth,
    },
    {
      service: 'Twilio',
      item: 'texts received',
      quantity: month.textsIn * segmentsPerText,
      unit: 'segments',
      usd: month.textsIn * segmentsPerText * prices.smsSegmentInbound,
    },
    {
      service: 'Twilio',
      item: 'texts sent',
      quantity: month.textsOut * segmentsPerText,
      unit: 'segments',
      usd: month.textsOut * segmentsPerText * prices.smsSegmentOutbound,
    },
    {
      service: 'Twilio',
      item: 'voice minutes (inbound)',
      quantity: callMinutes,
      unit: 'minutes',
      usd: callMinutes * prices.voiceInboundPerMinute,
    },
    {
      service: 'Twilio',
      item: 'Client minutes (browser leg)',
      quantity: callMinutes,
      unit: 'minutes',
      usd: callMinutes * prices.clientPerMinute,
    },
  ];
}

export const total = (lines: readonly PriceLine[]) => lines.reduce((n, l) => n + l.usd, 0);

/**
 * Secrets Manager calls of one function environment over a run: it reads its secrets (each version a
 * call) on its first invocation and again on the first invocation at least `ttlMs` after the last read
 * (functions/lib/config.ts), given the invocations' times in ms.
 */
export function secretReads(invocationTimes: readonly number[], ttlMs: number, callsPerRead: number): number {
  let reads = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  for (const at of [...invocationTimes].sort((a, b) => a - b)) {
    if (at - readAt >= ttlMs) {
      reads++;
      readAt = at;
    }
  }
  return reads * callsPerRead;
}
