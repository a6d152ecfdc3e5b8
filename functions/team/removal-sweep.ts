import { logError } from '../lib/log';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { finishRemoval, type UnfinishedRemovalRecord } from './removal-moves';

/**
 * The scheduled end of removals nobody finished (docs/product.md: Removed members): run by EventBridge
 * in AWS and by a timer in `npm start`. The Team page sends a removal's passes; should its tab close
 * before the last one, the removal's entry in the well-known partition is still there, and this
 * moves the rest as a pass would, by the member who removed them, every MEMBER_REMOVAL_SWEEP_MINUTES.
 */

export interface RemovalSweepOutcome {
  /** Removals found unfinished. */
  found: number;
  /** Of those, finished by this run. */
  finished: number;
  /** Conversations moved. */
  moved: number;
  /** Removals that failed (logged; the next run tries again). */
  failed: number;
  complete: boolean;
}

export async function sweepUnfinishedRemovals(hasTime: () => boolean): Promise<RemovalSweepOutcome> {
  const markers = await queryPrefix<UnfinishedRemovalRecord>(keys.unfinishedRemovals(), { consistent: true });
  const outcome: RemovalSweepOutcome = { found: markers.length, finished: 0, moved: 0, failed: 0, complete: true };
  // One at a time, oldest first: each move already writes 25 conversations a transaction.
  for (const marker of markers.sort((a, b) => a.removedAt.localeCompare(b.removedAt))) {
    if (!hasTime()) {
      outcome.complete = false;
      break;
    }
    try {
      const result = await finishRemoval(marker, hasTime);
      outcome.moved += result.moved;
      if (result.complete) outcome.finished += 1;
      else outcome.complete = false;
    } catch (error) {
      outcome.failed += 1;
      logError({ route: 'member-removal-sweep', companyId: marker.companyId, userId: marker.userId }, error);
    }
  }
  return outcome;
}
