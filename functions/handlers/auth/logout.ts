import { logout } from '@shared/contract/auth';
import { sessionTokenFailuresPerAddress } from '../../auth/limits';
import { endSession } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';
import { consume, uncount } from '../../lib/throttle';

/**
 * Public: the refresh token is the proof, so sign-out works even after the access token expired.
 * Counted per address like a refresh; a token that named a session is taken back.
 */
export const handler = defineHandler(logout, async ({ body, sourceIp }) => {
  await consume(sessionTokenFailuresPerAddress, sourceIp);
  if (await endSession(body.refreshToken)) await uncount(sessionTokenFailuresPerAddress, sourceIp);
  return { data: {} };
});
