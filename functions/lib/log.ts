type Level = 'info' | 'warn' | 'error';

/**
 * One JSON object per line, so CloudWatch Logs Insights (and a human) can read it. In AWS the
 * functions log in Lambda's JSON format (infra/constructs/switchboard-function.ts): the runtime wraps
 * each line with its time, level and Lambda request id and keeps an object given to it as JSON under
 * `message`, so the fields stay queryable (`message.webhookId`); a string would stay a string there.
 * Elsewhere (locally, in tests) the line is the object itself.
 */
function write(level: Level, fields: Record<string, unknown>): void {
  if (process.env.AWS_LAMBDA_LOG_FORMAT === 'JSON') console[level](fields);
  else console[level](JSON.stringify({ level, time: new Date().toISOString(), ...fields }));
}

export function logError(fields: Record<string, unknown>, error: unknown): void {
  const err =
    error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };
  write('error', { ...fields, error: err });
}

/** Something refused or unusual that an operator may need to find, without an exception. */
export function logWarning(fields: Record<string, unknown>): void {
  write('warn', fields);
}

/** What a background run did, for an operator reading its logs. */
export function logInfo(fields: Record<string, unknown>): void {
  write('info', fields);
}
