import { repairChannel } from '@shared/contract/channel-health';
import { repairCompanyChannel } from '../../channels/health-requests';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(repairChannel, async ({ principal, params, body }) => ({
  data: await repairCompanyChannel(principal.companyId, params.id, principal.userId, {
    messagingService: body.confirmMessagingService === true,
  }),
}));
