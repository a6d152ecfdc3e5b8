import { deleteCompany } from '@shared/contract/company';
import { startCompanyDeletion } from '../../company/deletion';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(deleteCompany, async ({ principal, body }) => ({
  data: { deletion: await startCompanyDeletion(principal.companyId, body.confirm) },
  message: 'Your company is being deleted.',
  status: 202,
}));
