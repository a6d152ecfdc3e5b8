import { updateChannelRouting } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { updateRouting } from '../../settings/channels';

export const handler = defineHandler(updateChannelRouting, async ({ principal, params, body }) => ({
  data: { channel: await updateRouting(principal.companyId, params.id, body.routingType, body.routingTargetId) },
}));
