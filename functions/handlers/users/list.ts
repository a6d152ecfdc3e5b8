import { listUsers } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { readyUserIds } from '../../realtime/phone-readiness';
import { toTeamUser } from '../../settings/records';
import { listCompanyUsers } from '../../settings/users';

export const handler = defineHandler(listUsers, async ({ principal }) => {
  const [users, ready] = await Promise.all([listCompanyUsers(principal.companyId), readyUserIds(principal.companyId)]);
  return {
    data: {
      users: users
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((u) => ({ ...toTeamUser(u), phoneReady: ready.has(u.id) })),
    },
  };
});
