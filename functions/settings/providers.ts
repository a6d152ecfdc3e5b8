import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Provider } from '../../shared/contract/settings';
import { notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { listChannelRecords } from './channels';
import { type ChannelRecord, type ProviderRecord, toProvider } from './records';

/**
 * Providers as stored. Connecting, disconnecting and importing numbers talk to Twilio and live in
 * their own modules (connect-twilio, disconnect-provider, number-import), so that listing needs no
 * Twilio, customer-secret or app-URL access.
 */

export const providerNotFound = () => notFound('Provider not found');

/** A provider, connected or still connecting. */
export async function getProviderRecord(companyId: string, providerId: string): Promise<ProviderRecord> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.provider(companyId, providerId), ConsistentRead: true }),
  );
  if (!Item) throw providerNotFound();
  return Item as ProviderRecord;
}

export const isConnected = (provider: ProviderRecord) => provider.status !== 'CONNECTING';

/** A connected provider: one whose connect has not finished is not found. */
export async function getConnectedProvider(companyId: string, providerId: string): Promise<ProviderRecord> {
  const provider = await getProviderRecord(companyId, providerId);
  if (!isConnected(provider)) throw providerNotFound();
  return provider;
}

function activeCount(channels: ChannelRecord[], providerId: string) {
  return channels.filter((c) => c.providerId === providerId && c.status === 'ACTIVE').length;
}

/** Connected providers; a connect that did not finish is not one (connecting again undoes it). */
export async function listProviders(companyId: string): Promise<Provider[]> {
  const [providers, channels] = await Promise.all([
    queryPrefix<ProviderRecord>(keys.providersOf(companyId)),
    listChannelRecords(companyId),
  ]);
  return providers.filter(isConnected).map((p) => toProvider(p, activeCount(channels, p.id)));
}
