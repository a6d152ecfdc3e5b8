import { refresh } from '../../../shared/contract/auth';
import { getActiveUser, touchLastActive } from '../../auth/accounts';
import { rotateRefreshToken } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(refresh, async ({ body }) => {
  const { tokens, user } = await rotateRefreshToken(body.refreshToken, getActiveUser);
  await touchLastActive(user);
  return { data: { tokens } };
});
