import { removeInboxMember } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { removeMember } from '../../settings/inboxes';

export const handler = defineHandler(removeInboxMember, async ({ principal, params }) => ({
  data: { member: await removeMember(principal.companyId, params.id, params.userId) },
}));
