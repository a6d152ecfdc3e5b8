import { listChannels } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { listChannels as list } from '../../settings/channels';

export const handler = defineHandler(listChannels, async ({ principal }) => ({
  data: { channels: await list(principal.companyId) },
}));
