import { importChannels } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { importChannels as importNumbers } from '../../settings/number-import';

export const handler = defineHandler(importChannels, async ({ principal, params, body }) => ({
  data: await importNumbers(principal.companyId, params.id, body.numbers),
}));
