import { assignConversation } from '../../../shared/contract/conversations';
import { assign } from '../../conversations/team-inbox';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(assignConversation, async ({ principal, params, body }) => ({
  data: { conversation: await assign(principal.companyId, principal.userId, params.id, body.userId) },
}));
