import { listUsers } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { toTeamUser } from '../../settings/records';
import { listCompanyUsers } from '../../settings/users';

export const handler = defineHandler(listUsers, async ({ principal }) => {
  const users = await listCompanyUsers(principal.companyId);
  return { data: { users: users.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(toTeamUser) } };
});
