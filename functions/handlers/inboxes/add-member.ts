import { addInboxMember } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { addMember } from '../../settings/inboxes';

export const handler = defineHandler(addInboxMember, async ({ principal, params, body }) => ({
  status: 201,
  data: { member: await addMember(principal.companyId, params.id, body.userId) },
}));
