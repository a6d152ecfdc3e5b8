import { startConversation } from '@shared/contract/conversations';
import { startConversation as start } from '../../conversations/start-conversation';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(startConversation, async ({ principal, body }) => {
  const { created, conversation } = await start(principal, body);
  return { status: created ? 201 : 200, data: { conversation } };
});
