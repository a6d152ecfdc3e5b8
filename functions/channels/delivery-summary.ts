import type { DeliverySummary } from '../../shared/contract/channel-health';

/** Days of outbound texts the summary counts, today included. */
const SUMMARY_DAYS = 7;

/**
 * A channel's outbound texts of the last days by their last status, with their error codes in words
 * (issue 26). A stub until the counters exist: zero counts since midnight UTC seven days ago.
 */
export async function deliverySummary(_companyId: string, _channelId: string, now = new Date()): Promise<DeliverySummary> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - SUMMARY_DAYS));
  return { since: since.toISOString(), sent: 0, delivered: 0, failed: 0, undelivered: 0, errors: [] };
}
