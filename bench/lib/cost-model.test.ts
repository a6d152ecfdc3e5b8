import { describe, expect, it } from 'vitest';
import { AWS_PRICES, TWILIO_PRICES } from '../aws-prices';
import {
  ACTIVE_COMPANY_MONTH,
  addUsage,
  awsBill,
  companyMonthUsage,
  gbSeconds,
  LOG_COMPRESSION,
  LOG_EVENT_BYTES,
  LOG_EVENTS_PER_INVOCATION,
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
} from './cost-model';

const usage = (values: Partial<Usage>): Usage => ({ ...noUsage(), ...values });
const line = (lines: ReturnType<typeof awsBill>, item: string) => lines.find((l) => l.item === item);

describe('cost model', () => {
  it('counts CloudWatch Logs: an access-log line a request or socket event, Lambda’s lines an invocation, each with its overhead', () => {
    const logs = logUsage(1000, 500, 200);
    expect(logs.logEvents).toBe(1000 + 500 + 200 * LOG_EVENTS_PER_INVOCATION);
    expect(logs.logBytes).toBe(
      1000 * LOG_EVENT_BYTES.httpAccess + 500 * LOG_EVENT_BYTES.socketAccess + 200 * LOG_EVENT_BYTES.lambdaPerInvocation,
    );
    const gb = (1024 ** 3 - 1_000_000 * AWS_PRICES.cloudWatchLogs.eventOverheadBytes) / 1024 ** 3;
    const bill = awsBill(usage({ logBytes: gb * 1024 ** 3, logEvents: 1_000_000 }), AWS_PRICES);
    // One GB ingested, with the events' overhead, and kept compressed a month.
    expect(line(bill, 'ingested')?.usd).toBeCloseTo(0.5 + LOG_COMPRESSION * 0.03, 10);
  });

  it('meters messages in started increments, an empty one as one', () => {
    expect(meteredUnits(0, 32 * 1024)).toBe(1);
    expect(meteredUnits(32 * 1024, 32 * 1024)).toBe(1);
    expect(meteredUnits(32 * 1024 + 1, 32 * 1024)).toBe(2);
  });

  it('turns milliseconds at a memory size into GB-seconds', () => {
    expect(gbSeconds(1000, 1024)).toBe(1);
    expect(gbSeconds(250, 512)).toBe(0.125);
  });

  it('prices each item per million, per GB or per thousand', () => {
    const bill = awsBill(
      usage({
        cloudFrontRequests: 2_000_000,
        cloudFrontBytesOut: 1024 ** 3,
        httpApiRequests: 1_000_000,
        socketMessages: 3_000_000,
        socketConnectionMinutes: 4_000_000,
        lambdaInvocations: 5_000_000,
        lambdaGbSeconds: 100_000,
        dynamoReadUnits: 8_000_000,
        dynamoWriteUnits: 1_000_000,
        secretsManagerCalls: 10_000,
        kmsRequests: 10_000,
        sesMails: 1000,
      }),
      AWS_PRICES,
    );
    expect(line(bill, 'requests')?.usd).toBeCloseTo(2.0, 10);
    expect(line(bill, 'data out')?.usd).toBeCloseTo(0.085, 10);
    expect(line(bill, 'HTTP API requests')?.usd).toBeCloseTo(1.0, 10);
    expect(line(bill, 'WebSocket messages')?.usd).toBeCloseTo(3.0, 10);
    expect(line(bill, 'WebSocket connection minutes')?.usd).toBeCloseTo(1.0, 10);
    expect(line(bill, 'invocations')?.usd).toBeCloseTo(1.0, 10);
    expect(line(bill, 'duration (arm64)')?.usd).toBeCloseTo(1.33334, 10);
    expect(line(bill, 'read request units')?.usd).toBeCloseTo(1.0, 10);
    expect(line(bill, 'write request units')?.usd).toBeCloseTo(0.625, 10);
    expect(line(bill, 'API calls')?.usd).toBeCloseTo(0.05, 10);
    expect(line(bill, 'mails')?.usd).toBeCloseTo(0.1, 10);
    expect(total(bill)).toBeCloseTo(2 + 0.085 + 1 + 3 + 1 + 1 + 1.33334 + 1 + 0.625 + 0.05 + 0.03 + 0.1, 10);
  });

  it('multiplies each measured part by how often it happens in a company-month', () => {
    const one = usage({ lambdaInvocations: 1 });
    const parts: MeasuredParts = {
      signIn: one,
      tabHour: scaleUsage(one, 10),
      textIn: scaleUsage(one, 100),
      textOut: scaleUsage(one, 1000),
      call: scaleUsage(one, 10_000),
      healthCheck: scaleUsage(one, 7),
    };
    const month = companyMonthUsage(parts, { ...ACTIVE_COMPANY_MONTH, agents: 3, hoursPerDay: 8, days: 22 });
    expect(month.signIn.lambdaInvocations).toBe(66);
    expect(month.tabHour.lambdaInvocations).toBe(10 * 528);
    expect(month.textIn.lambdaInvocations).toBe(100 * 1000);
    expect(month.textOut.lambdaInvocations).toBe(1000 * 1000);
    expect(month.call.lambdaInvocations).toBe(10_000 * 200);
    // An hourly check of the one number, every day of a 30-day month.
    expect(month.healthCheck.lambdaInvocations).toBe(7 * 720);
    expect(addUsage(...Object.values(month)).lambdaInvocations).toBe(66 + 5280 + 100_000 + 1_000_000 + 2_000_000 + 7 * 720);
  });

  it('counts an event above the baseline, never below zero', () => {
    const out = usageAbove(
      usage({ lambdaInvocations: 10, dynamoReadUnits: 1 }),
      usage({ lambdaInvocations: 4, dynamoReadUnits: 3 }),
    );
    expect(out.lambdaInvocations).toBe(6);
    expect(out.dynamoReadUnits).toBe(0);
  });

  it('reads secrets on the first invocation and again once the cache has aged', () => {
    expect(secretReads([], 60_000, 2)).toBe(0);
    expect(secretReads([0, 30_000, 59_999], 60_000, 2)).toBe(2);
    expect(secretReads([0, 60_000, 61_000, 130_000], 60_000, 4)).toBe(12);
    expect(secretReads([130_000, 0, 60_000], 60_000, 1)).toBe(3);
  });

  it('prices the same month in Twilio: number, segments both ways, inbound and browser minutes', () => {
    const month = { ...ACTIVE_COMPANY_MONTH, numbers: 1, textsIn: 1000, textsOut: 1000, calls: 200, callMinutes: 3 };
    const lines = twilioBill(month, TWILIO_PRICES);
    expect(total(lines)).toBeCloseTo(1.15 + 1000 * 0.0083 * 2 + 600 * (0.0085 + 0.004), 10);
    expect(total(twilioBill(month, TWILIO_PRICES, 2)) - total(lines)).toBeCloseTo(2000 * 0.0083, 10);
  });
});
