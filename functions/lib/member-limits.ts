import { MEDIA_REQUESTS_PER_MEMBER_MINUTE, RECORDING_REQUESTS_PER_MEMBER_MINUTE } from '../../shared/constants';
import { consumeSliding, type SlidingLimit } from './throttle';

/**
 * Per-member limits on the routes that fetch from the company's Twilio account on each request
 * (docs/product.md: Sending limits): a text's pictures and files, and voicemail recordings. Counted
 * before anything is looked up, so a member asking for what is not there counts too.
 */

function perMinute(bucket: string, limit: number, what: string) {
  return (companyId: string, userId: string): SlidingLimit => ({
    bucket,
    subject: `${companyId}#${userId}`,
    limit,
    windowSeconds: 60,
    message: (when) => `You can open up to ${limit} ${what} a minute. Please try again ${when}.`,
  });
}

export const mediaFetchLimit = perMinute('MEDIA_FETCH', MEDIA_REQUESTS_PER_MEMBER_MINUTE, 'pictures and files');
export const recordingFetchLimit = perMinute('RECORDING_FETCH', RECORDING_REQUESTS_PER_MEMBER_MINUTE, 'voicemail recordings');

/** Counts one fetch of the member's, or refuses it with 429. */
export async function countFetch(
  limit: (companyId: string, userId: string) => SlidingLimit,
  principal: { companyId: string; userId: string },
): Promise<void> {
  await consumeSliding([limit(principal.companyId, principal.userId)], 1);
}
