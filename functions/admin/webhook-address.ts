import type { WebhookAddress } from '../../shared/contract/admin';
import { forEachLimited } from '../lib/concurrency';
import { queryPages, queryPrefix } from '../lib/query';
import { GSI1, keys } from '../lib/table';
import { listChannelRecords } from '../settings/channels';
import { isConnected } from '../settings/providers';
import type { ChannelRecord, ProviderRecord } from '../settings/records';
import { currentWebhookBase } from '../settings/webhook-base';
import { pointingElsewhere } from '../settings/webhook-urls';

/**
 * The platform admin's view of where Twilio reaches the platform (issue 29; README: Deploy to AWS,
 * custom domain): the current webhook base and what is recorded on another one. Reads only the
 * table: what each number was pointed at is recorded on it (functions/settings/repoint.ts).
 */

/** Companies counted side by side for the overview: two Queries each. */
const COUNT_CONCURRENCY = 10;

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

export async function webhookAddress(): Promise<WebhookAddress> {
  const base = await currentWebhookBase();
  const elsewhere = { companies: 0, numbers: 0 };
  for await (const companies of companyPages()) {
    await forEachLimited(companies, COUNT_CONCURRENCY, async (company) => {
      const { providers, channels } = await twilioOf(company.id);
      let pending = false;
      for (const provider of providers) {
        const state = pointingElsewhere(provider, channels, base);
        elsewhere.numbers += state.numbers;
        pending ||= state.provider || state.numbers > 0;
      }
      if (pending) elsewhere.companies += 1;
    });
  }
  return { webhookBase: base, pointingElsewhere: elsewhere };
}
