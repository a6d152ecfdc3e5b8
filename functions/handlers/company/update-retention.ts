import { updateRetention } from '@shared/contract/company';
import { setRetention } from '../../company/retention';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(updateRetention, async ({ principal, body }) => ({
  data: { retention: await setRetention(principal.companyId, body) },
  message: 'Message retention saved.',
}));
