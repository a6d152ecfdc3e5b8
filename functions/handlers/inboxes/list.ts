import { listInboxes } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { listInboxes as list } from '../../settings/inboxes';

export const handler = defineHandler(listInboxes, async ({ principal }) => ({
  data: { inboxes: await list(principal.companyId) },
}));
