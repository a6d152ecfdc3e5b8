import { getConversation } from '@shared/contract/conversations';
import { readThread } from '../../conversations/thread';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(getConversation, async ({ principal, params, query }) => ({
  data: { conversation: await readThread(principal, params.id, query.before) },
}));
