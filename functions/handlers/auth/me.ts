import { me } from '@shared/contract/auth';
import { getActiveUser, getCompany, toCompany, toUser } from '../../auth/accounts';
import { unauthorized } from '../../lib/app-error';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(me, async ({ principal }) => {
  const [user, company] = await Promise.all([
    getActiveUser(principal.companyId, principal.userId),
    getCompany(principal.companyId),
  ]);
  if (!user || !company) throw unauthorized('This account no longer exists.');
  return { data: { user: toUser(user), company: toCompany(company) } };
});
