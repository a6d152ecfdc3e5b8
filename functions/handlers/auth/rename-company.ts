import { renameCompany } from '@shared/contract/account';
import { toCompany } from '../../auth/accounts';
import { renameCompany as rename } from '../../auth/profile';
import { defineHandler } from '../../lib/define-handler';

/** The owner only (the contract's roles). */
export const handler = defineHandler(renameCompany, async ({ principal, body }) => {
  const company = await rename(principal.companyId, body.name);
  return { data: { company: toCompany(company) }, message: 'The company name was saved.' };
});
