import type { UserRecord } from '../auth/accounts';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';

/** The company's current users; removed users keep their item for history but are not listed. */
export async function listCompanyUsers(companyId: string): Promise<UserRecord[]> {
  return (await queryPrefix<UserRecord>(keys.usersOf(companyId))).filter((u) => !u.removedAt);
}
