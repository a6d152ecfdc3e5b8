import { getInboxRouting } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { getRoutingStrategies } from '../../settings/inboxes';

export const handler = defineHandler(getInboxRouting, async ({ principal, params }) => ({
  data: { strategies: await getRoutingStrategies(principal.companyId, params.id) },
}));
