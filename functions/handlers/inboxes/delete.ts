import { deleteInbox } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { deleteInbox as remove } from '../../settings/inboxes';

export const handler = defineHandler(deleteInbox, async ({ principal, params }) => ({
  data: { inbox: await remove(principal.companyId, params.id) },
}));
