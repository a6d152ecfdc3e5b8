import { changePassword } from '@shared/contract/account';
import { currentPasswordFailuresPerAccount } from '../../auth/limits';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { passwordOwner, setPassword, wrongCurrentPassword } from '../../auth/profile';
import { endOtherSessions } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';
import { consume, uncount } from '../../lib/throttle';

/** Counted before the check and taken back when the current password was right (auth/limits). */
export const handler = defineHandler(changePassword, async ({ principal, body }) => {
  await consume(currentPasswordFailuresPerAccount, principal.userId);
  const user = await passwordOwner(principal);
  if (!(await verifyPassword(body.currentPassword, user.passwordHash))) throw wrongCurrentPassword();
  await uncount(currentPasswordFailuresPerAccount, principal.userId);
  await setPassword(user, await hashPassword(body.newPassword));
  // This tab stays signed in; every other session of the person ends.
  await endOtherSessions(principal.companyId, principal.userId, principal.sessionId);
  return { data: {}, message: 'Your password was changed. You were signed out everywhere else.' };
});
