import { listConversations } from '../../../shared/contract/conversations';
import { listConversationPage } from '../../conversations/list';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(listConversations, async ({ principal, query }) => ({
  data: await listConversationPage(principal.companyId, principal.userId, query),
}));
