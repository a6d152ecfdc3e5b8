import { resetPassword } from '@shared/contract/account';
import { passwordResetOf, spendPasswordReset } from '../../auth/password-reset';
import { hashPassword } from '../../auth/passwords';
import { endAllSessions } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';

/**
 * A new password ends every session of the account: whoever knew the old one is signed out. The
 * person signs in with the new password (no session is started here).
 */
export const handler = defineHandler(resetPassword, async ({ body }) => {
  const owner = await passwordResetOf(body.token);
  await spendPasswordReset(body.token, owner, await hashPassword(body.password));
  await endAllSessions(owner.companyId, owner.userId);
  return { data: {}, message: 'Your password has been changed. Sign in with your new password.' };
});
