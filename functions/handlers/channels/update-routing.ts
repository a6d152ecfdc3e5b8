import { updateChannelRouting } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { getChannelRecord, updateRouting } from '../../settings/channels';
import { tellRoutingChanged } from '../../team/visibility-events';

export const handler = defineHandler(updateChannelRouting, async ({ principal, params, body }) => {
  const { companyId } = principal;
  const before = await getChannelRecord(companyId, params.id);
  const channel = await updateRouting(companyId, params.id, body.routingType, body.routingTargetId);
  // Visibility follows the routing now (docs/product.md: Who sees what): the tabs whose view it changed read again.
  await tellRoutingChanged(
    companyId,
    { routingType: before.routingType, routingTargetId: before.routingTargetId },
    { routingType: channel.routingType, routingTargetId: channel.routingTargetId },
  );
  return { data: { channel } };
});
