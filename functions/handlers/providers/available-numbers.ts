import { availableNumbers } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { availableNumbers as list } from '../../settings/available-numbers';

export const handler = defineHandler(availableNumbers, async ({ principal, params }) => ({
  data: { numbers: await list(principal.companyId, params.id) },
}));
