import { describe, expect, it } from 'vitest';
import {
  embeddedMetricLine,
  METRICS_NAMESPACE,
  reportTimeUsed,
  TIME_USED_METRIC,
  TIME_USED_REPORTED_FROM_PERCENT,
} from './metrics';

describe('the time an invocation used (docs/operations.md: The alarms)', () => {
  const reported = (usedMs: number, timeMs: number) => {
    const lines: string[] = [];
    reportTimeUsed(usedMs, timeMs, (line) => lines.push(line));
    return lines.map((line) => JSON.parse(line));
  };

  it('is reported as a percentage of the function’s time, in CloudWatch’s embedded metric format', () => {
    const [line] = reported(8_700, 10_000);
    expect(line).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          { Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: TIME_USED_METRIC, Unit: 'Percent' }] },
        ],
      },
      [TIME_USED_METRIC]: 87,
    });
    expect(typeof line._aws.Timestamp).toBe('number');
  });

  it('is reported from half the time on, and not below it: a quiet function writes nothing', () => {
    expect(reported(((TIME_USED_REPORTED_FROM_PERCENT - 1) * 29_000) / 100, 29_000)).toEqual([]);
    expect(reported(100, 10_000)).toEqual([]);
    expect(reported((TIME_USED_REPORTED_FROM_PERCENT * 29_000) / 100, 29_000)).toHaveLength(1);
    // A function stopped at its timeout used all of it.
    expect(reported(10_000, 10_000)[0][TIME_USED_METRIC]).toBe(100);
  });

  it('writes a line CloudWatch reads as it is, one JSON object', () => {
    const line = embeddedMetricLine(TIME_USED_METRIC, 90, 'Percent', 1_700_000_000_000);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)._aws.Timestamp).toBe(1_700_000_000_000);
  });
});
