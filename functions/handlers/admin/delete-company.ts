import { adminDeleteCompany } from '@shared/contract/company';
import { startCompanyDeletion } from '../../company/deletion';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(adminDeleteCompany, async ({ params, body }) => ({
  data: { deletion: await startCompanyDeletion(params.id, body.confirm) },
  message: 'The company is being deleted.',
  status: 202,
}));
