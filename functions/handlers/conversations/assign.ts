import { assignConversation as assignConversationContract } from '@shared/contract/conversations';
import { assignConversation } from '../../conversations/assignment';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(assignConversationContract, async ({ principal, params, body }) => ({
  data: { conversation: await assignConversation(principal, params.id, body.userId) },
}));
