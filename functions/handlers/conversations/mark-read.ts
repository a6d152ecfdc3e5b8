import { markConversationRead } from '@shared/contract/conversations';
import { markRead } from '../../conversations/read-markers';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(markConversationRead, async ({ principal, params }) => ({
  data: { conversation: await markRead(principal, params.id) },
}));
