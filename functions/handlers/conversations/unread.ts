import { unreadConversations } from '@shared/contract/conversations';
import { countUnread } from '../../conversations/unread-window';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(unreadConversations, async ({ principal }) => ({
  data: await countUnread(principal),
}));
