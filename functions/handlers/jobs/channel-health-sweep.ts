import type { Context } from 'aws-lambda';
import { DEFAULT_HEALTH_INTERVAL_MINUTES, type HealthSweepOutcome, sweepChannelHealth } from '../../channels/health-sweep';
import { logInfo } from '../../lib/log';

/** Time kept in hand for the channel being checked (Twilio calls of 8 s at most) when the run stops. */
const MARGIN_MS = 30_000;

/** What the schedule sends (infra: the rule's input; locally the timer's). */
export interface HealthSweepEvent {
  intervalMinutes?: number;
}

/** The scheduled channel health check (docs/product.md: Channel health): every active channel of every company. */
export async function handler(event: HealthSweepEvent, context: Context): Promise<HealthSweepOutcome> {
  const outcome = await sweepChannelHealth({
    intervalMinutes: Number(event?.intervalMinutes) || DEFAULT_HEALTH_INTERVAL_MINUTES,
    hasTime: () => context.getRemainingTimeInMillis() > MARGIN_MS,
  });
  logInfo({ route: 'channel-health-sweep', ...outcome });
  return outcome;
}
