import { socketDisconnect } from '@shared/contract/realtime';
import { markActive } from '../../auth/accounts';
import { defineSocketHandler } from '../../lib/define-socket-handler';
import { removeConnection } from '../../realtime/connections';
import { announcePhoneGone } from '../../realtime/phones';
import { announceDepartures } from '../../realtime/presence';

export const handler = defineSocketHandler(socketDisconnect, async ({ connectionId }) => {
  const removed = await removeConnection(connectionId);
  if (!removed) return undefined;
  // Closing the app is the last moment they used it: recorded before the others hear they left.
  await markActive(removed.companyId, removed.userId, { everyMinute: false });
  await announceDepartures(removed.companyId, [removed]);
  if (removed.phoneWasReady) await announcePhoneGone(removed);
  return undefined;
});
