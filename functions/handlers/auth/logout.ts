import { logout } from '../../../shared/contract/auth';
import { endSession } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';

/** Public: the refresh token is the proof, so sign-out works even after the access token expired. */
export const handler = defineHandler(logout, async ({ body }) => {
  await endSession(body.refreshToken);
  return { data: {} };
});
