import { queryPages, queryPrefix } from '../lib/query';
import { GSI1, keys } from '../lib/table';
import { listChannelRecords } from './channels';
import { isConnected } from './providers';
import type { ChannelRecord, ProviderRecord } from './records';

/**
 * Every company's Twilio side, company by company: what the platform admin's re-point
 * (functions/admin) and the scheduled channel health check (functions/channels) go through.
 */

export interface ListedCompany {
  id: string;
  name: string;
  GSI1SK: string;
}

interface CompanyTwilio {
  providers: ProviderRecord[];
  channels: ChannelRecord[];
}

/** The company's connected providers and its channels; none without a connected provider. */
export async function twilioOf(companyId: string): Promise<CompanyTwilio> {
  const providers = (await queryPrefix<ProviderRecord>(keys.providersOf(companyId))).filter(isConnected);
  if (providers.length === 0) return { providers, channels: [] };
  return { providers, channels: await listChannelRecords(companyId) };
}

/** Every listed company (being deleted: not listed), oldest first, from `from` (a listing sort key) on, page by page. */
export async function* companyPages(from?: string): AsyncGenerator<ListedCompany[]> {
  const listing = keys.companyListing('', '');
  yield* queryPages<ListedCompany>({
    IndexName: GSI1.indexName,
    KeyConditionExpression: from === undefined ? '#pk = :pk' : '#pk = :pk AND #sk >= :from',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#name': 'name', '#sk': GSI1.sortKey },
    ExpressionAttributeValues: { ':pk': listing.GSI1PK, ...(from === undefined ? {} : { ':from': from }) },
    ProjectionExpression: 'id, #name, #sk',
  });
}
