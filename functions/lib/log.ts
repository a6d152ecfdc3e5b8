/** One JSON line per event, so CloudWatch Logs Insights (and a human) can read it. */
export function logError(fields: Record<string, unknown>, error: unknown): void {
  const err =
    error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };
  console.error(JSON.stringify({ level: 'error', time: new Date().toISOString(), ...fields, error: err }));
}
