import { socketDisconnect } from '../../../shared/contract/realtime';
import { defineSocketHandler } from '../../lib/define-socket-handler';
import { removeConnection } from '../../realtime/connections';

export const handler = defineSocketHandler(socketDisconnect, async ({ connectionId }) => {
  await removeConnection(connectionId);
  return undefined;
});
