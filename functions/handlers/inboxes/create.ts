import { createInbox } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { createInbox as create } from '../../settings/inboxes';

export const handler = defineHandler(createInbox, async ({ principal, body }) => ({
  status: 201,
  data: { inbox: await create(principal.companyId, body.name, body.description ?? null) },
}));
