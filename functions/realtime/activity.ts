const MINUTE_MS = 60_000;

/**
 * Whether a heartbeat records its user's activity (lastActiveAt): the socket's first, then its first
 * in each minute. Beats come every 30 s, so an open tab tries one write a minute, not one a beat.
 */
export function beatRecordsActivity(beat: { first: boolean; previousSeenAt: number | undefined }, nowMs: number): boolean {
  if (beat.first || beat.previousSeenAt === undefined) return true;
  return Math.floor(beat.previousSeenAt / MINUTE_MS) !== Math.floor(nowMs / MINUTE_MS);
}
