import { socketConnect } from '../../../shared/contract/realtime';
import { defineSocketHandler } from '../../lib/define-socket-handler';
import { saveConnection } from '../../realtime/connections';

export const handler = defineSocketHandler(socketConnect, async ({ connectionId, principal }) => {
  await saveConnection({
    connectionId,
    companyId: principal.companyId,
    userId: principal.userId,
    sessionId: principal.sessionId,
  });
  return undefined;
});
