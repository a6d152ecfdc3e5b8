import { getInbox } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { getInbox as get } from '../../settings/inboxes';

export const handler = defineHandler(getInbox, async ({ principal, params }) => ({
  data: { inbox: await get(principal.companyId, params.id) },
}));
