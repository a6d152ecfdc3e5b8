import type { UserRecord } from '../auth/accounts';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';

export function listCompanyUsers(companyId: string): Promise<UserRecord[]> {
  return queryPrefix<UserRecord>(keys.usersOf(companyId));
}
