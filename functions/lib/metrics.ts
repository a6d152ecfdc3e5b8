/** Where the app's own metrics are kept: those its access logs yield and those its functions report. */
export const METRICS_NAMESPACE = 'Switchboard';

/** The share of its time (Lambda's timeout) an invocation used, in percent. */
export const TIME_USED_METRIC = 'FunctionTimeUsed';

/**
 * From this share on an invocation reports the time it used: a quiet function writes no line and
 * costs no log, and the alarm looks only at the highest (docs/operations.md: The alarms).
 */
export const TIME_USED_REPORTED_FROM_PERCENT = 50;

/**
 * One line of CloudWatch's embedded metric format, written to standard output as it is: Lambda's
 * JSON log format wraps what `console` writes, which CloudWatch would not read as a metric, and
 * passes a line written straight to stdout unchanged. No dimension: one custom metric for the
 * whole stack, not one per function.
 */
export function embeddedMetricLine(name: string, value: number, unit: 'Percent' | 'Count', now = Date.now()): string {
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: unit }] }],
    },
    [name]: value,
  });
}

/** Reports the share of its time an invocation used, when it is at least TIME_USED_REPORTED_FROM_PERCENT. */
export function reportTimeUsed(usedMs: number, timeMs: number, write: (line: string) => void = stdout): void {
  if (!(timeMs > 0)) return;
  const percent = Math.round((100 * usedMs) / timeMs);
  if (percent < TIME_USED_REPORTED_FROM_PERCENT) return;
  write(embeddedMetricLine(TIME_USED_METRIC, percent, 'Percent'));
}

/** In Lambda only (its JSON log format): locally no CloudWatch reads the line, and it would only clutter. */
const stdout = (line: string) => {
  if (process.env.AWS_LAMBDA_LOG_FORMAT === 'JSON') process.stdout.write(`${line}\n`);
};
