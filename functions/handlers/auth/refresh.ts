import { refresh } from '@shared/contract/auth';
import { getActiveUser, touchLastActive } from '../../auth/accounts';
import { sessionTokenFailuresPerAddress } from '../../auth/limits';
import { rotateRefreshToken } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';
import { consume, uncount } from '../../lib/throttle';

/** Counted per address before the lookup, taken back when the session was live (auth/limits). */
export const handler = defineHandler(refresh, async ({ body, sourceIp }) => {
  await consume(sessionTokenFailuresPerAddress, sourceIp);
  const { tokens, user } = await rotateRefreshToken(body.refreshToken, getActiveUser);
  await Promise.all([touchLastActive(user), uncount(sessionTokenFailuresPerAddress, sourceIp)]);
  return { data: { tokens } };
});
