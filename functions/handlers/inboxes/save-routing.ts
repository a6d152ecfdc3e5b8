import { saveInboxRouting } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { saveRoutingStrategy } from '../../settings/inboxes';

export const handler = defineHandler(saveInboxRouting, async ({ principal, params, body }) => ({
  data: {
    strategy: await saveRoutingStrategy(principal.companyId, params.id, {
      channelType: body.channelType,
      strategyType: body.strategyType,
      config: body.config ?? {},
    }),
  },
}));
