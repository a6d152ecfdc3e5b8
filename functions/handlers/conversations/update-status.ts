import { updateConversationStatus } from '@shared/contract/conversations';
import { changeConversationStatus } from '../../conversations/status';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(updateConversationStatus, async ({ principal, params, body }) => ({
  data: { conversation: await changeConversationStatus(principal, params.id, body.status) },
}));
