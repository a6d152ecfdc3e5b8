import { listConversations } from '@shared/contract/conversations';
import { listConversationPage } from '../../conversations/list';
import { listUnreadPage } from '../../conversations/unread-window';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(listConversations, async ({ principal, query }) => ({
  data: query.unread === 'true' ? await listUnreadPage(principal, query) : await listConversationPage(principal, query),
}));
