import { socketDefault } from '@shared/contract/realtime';
import { defineSocketHandler } from '../../lib/define-socket-handler';
import { handleClientMessage } from '../../realtime/messages';

/** Every client message (docs/product.md §3). Answers go back as events; the route itself always succeeds. */
export const handler = defineSocketHandler(socketDefault, async ({ connectionId, body }) => {
  await handleClientMessage(connectionId, body ?? '');
  return undefined;
});
