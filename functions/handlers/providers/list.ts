import { listProviders } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { listProviders as list } from '../../settings/providers';

export const handler = defineHandler(listProviders, async ({ principal }) => ({
  data: { providers: await list(principal.companyId) },
}));
