import { socketDisconnect } from '../../../shared/contract/realtime';
import { defineSocketHandler } from '../../lib/define-socket-handler';
import { removeConnection } from '../../realtime/connections';
import { announceDepartures } from '../../realtime/presence';

export const handler = defineSocketHandler(socketDisconnect, async ({ connectionId }) => {
  const removed = await removeConnection(connectionId);
  if (removed) await announceDepartures(removed.companyId, [removed]);
  return undefined;
});
