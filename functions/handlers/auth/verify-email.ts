import { verifyEmail } from '@shared/contract/auth';
import { getCompany, getUser, toCompany, toUser, touchLastActive } from '../../auth/accounts';
import { startSession } from '../../auth/sessions';
import { consumeVerification } from '../../auth/verification';
import { unauthorized } from '../../lib/app-error';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(verifyEmail, async ({ body }) => {
  const { companyId, userId } = await consumeVerification(body.token);
  const [stored, company] = await Promise.all([getUser(companyId, userId), getCompany(companyId)]);
  if (!stored || !company) throw unauthorized('This account no longer exists.');
  const user = await touchLastActive(stored);
  return {
    data: { user: toUser(user), company: toCompany(company), tokens: await startSession(user) },
    message: 'Email verified successfully. You are now signed in.',
  };
});
