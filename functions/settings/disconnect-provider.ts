import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Provider } from '../../shared/contract/settings';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { listChannelRecords } from './channels';
import { announceProviderChange } from './provider-events';
import { deleteCreatedObjects, deleteProviderItems, restorePendingImports, settle } from './provider-teardown';
import { getProviderRecord } from './providers';
import { toProvider } from './records';
import { clientFor, restoreUpdate } from './twilio-account';

/**
 * Disconnects: puts each imported number's URLs back as they were before import (those of imports
 * that never finished too), deletes the API key and the TwiML application, deactivates the channels
 * and forgets the credentials. The Twilio account and its numbers stay. Also undoes a connect that
 * never finished.
 */
export async function disconnectProvider(companyId: string, providerId: string): Promise<Provider> {
  const provider = await getProviderRecord(companyId, providerId);
  const TableName = tableName();
  const channels = (await listChannelRecords(companyId)).filter((c) => c.providerId === providerId && c.status === 'ACTIVE');
  const client = await clientFor(provider);
  const route = 'disconnectProvider';
  await settle(
    { route, companyId, providerId },
    channels.filter((c) => c.numberSid).map((c) => client.updateIncomingNumber(c.numberSid as string, restoreUpdate(c))),
  );
  await restorePendingImports(provider, client, route);
  await deleteCreatedObjects(provider, client, route);
  await Promise.all(
    channels.map((c) =>
      db.send(
        new UpdateCommand({
          TableName,
          Key: keys.channel(companyId, c.id),
          UpdateExpression: 'SET #status = :inactive',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':inactive': 'INACTIVE' },
        }),
      ),
    ),
  );
  await deleteProviderItems(provider);
  await announceProviderChange(companyId, providerId, false);
  return toProvider(provider, 0);
}
