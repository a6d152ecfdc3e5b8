import { socketConnect } from '@shared/contract/realtime';
import { defineSocketHandler } from '../../lib/define-socket-handler';
import { saveConnection } from '../../realtime/connections';
import { announceArrival } from '../../realtime/presence';

/**
 * Registers the socket its ticket admitted. The snapshot follows the socket's first heartbeat: API
 * Gateway cannot push to a connection before `$connect` has answered.
 */
export const handler = defineSocketHandler(socketConnect, async ({ connectionId, holder }) => {
  const connection = await saveConnection({ connectionId, ...holder });
  await announceArrival(connection);
  return undefined;
});
