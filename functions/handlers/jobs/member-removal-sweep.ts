import type { Context } from 'aws-lambda';
import { logInfo } from '../../lib/log';
import { type RemovalSweepOutcome, sweepUnfinishedRemovals } from '../../team/removal-sweep';

/** Time kept in hand when the run stops: a batch of 25 moves, or 25 one at a time after a conflict. */
const MARGIN_MS = 20_000;

/** The scheduled end of removals nobody finished (docs/product.md: Removed members). */
export async function handler(_event: unknown, context: Context): Promise<RemovalSweepOutcome> {
  const outcome = await sweepUnfinishedRemovals(() => context.getRemainingTimeInMillis() > MARGIN_MS);
  logInfo({ route: 'member-removal-sweep', ...outcome });
  return outcome;
}
