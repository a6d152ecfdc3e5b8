import { getChannelHealth } from '@shared/contract/channel-health';
import { channelHealth } from '../../channels/health-requests';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(getChannelHealth, async ({ principal, params, query }) => ({
  data: { health: await channelHealth(principal.companyId, principal.userId, params.id, query.refresh === 'true') },
}));
