import { getRetention } from '@shared/contract/company';
import { getRetention as retentionOf } from '../../company/retention';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(getRetention, async ({ principal }) => ({
  data: { retention: await retentionOf(principal.companyId) },
}));
