import { listSendingNumbers } from '@shared/contract/conversations';
import { listSendingNumbers as list } from '../../conversations/sending-numbers';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(listSendingNumbers, async ({ principal }) => ({
  data: { sendingNumbers: await list(principal) },
}));
