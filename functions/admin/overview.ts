import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_COMPANIES_PAGE_SIZE, type AdminCompany, type AdminOverview } from '../../shared/contract/admin';
import type { CompanyRecord, UserRecord } from '../auth/accounts';
import { COMPANY_COUNTER_SHARDS } from '../conversations/company-counters';
import { COMPANY_COUNTERS, sumCounts } from '../conversations/records';
import { badRequest } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { GSI1, keyIds, keys } from '../lib/table';
import { readPlatformStats } from './platform-stats';

type CompanyItem = CompanyRecord & Record<string, unknown> & { GSI1SK: string };

/**
 * The admin overview: totals from the platform counters, and one page of companies from the listing
 * index (newest first) with each owner and Twilio connection read in one BatchGet. Its cost is one
 * page's, whatever the number of companies.
 */
export async function adminOverview(cursor: string | undefined): Promise<AdminOverview> {
  const after = cursor === undefined ? undefined : readCursor(cursor);
  const [stats, page] = await Promise.all([readPlatformStats(), companyPage(after)]);
  const details = await companyDetails(page.companies);
  return {
    ...stats,
    companies: page.companies.map((company) => toAdminCompany(company, details)),
    nextCursor: page.last ? Buffer.from(page.last).toString('base64url') : null,
  };
}

async function companyPage(before: string | undefined): Promise<{ companies: CompanyItem[]; last: string | undefined }> {
  const listing = keys.companyListing('', '');
  const res = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1.indexName,
      KeyConditionExpression: before === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :before',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey, ...(before === undefined ? {} : { '#sk': GSI1.sortKey }) },
      ExpressionAttributeValues: { ':pk': listing.GSI1PK, ...(before === undefined ? {} : { ':before': before }) },
      ScanIndexForward: false,
      Limit: ADMIN_COMPANIES_PAGE_SIZE,
    }),
  );
  const companies = (res.Items ?? []) as CompanyItem[];
  return { companies, last: res.LastEvaluatedKey ? companies.at(-1)?.GSI1SK : undefined };
}

/** Owners, Twilio connections and counter shards of a page's companies (a page of 50 asks for 500 keys). */
async function companyDetails(companies: CompanyItem[]) {
  const owners = new Map<string, UserRecord>();
  const connected = new Set<string>();
  const counters = new Map<string, Record<string, unknown>[]>();
  const counterNames = Object.values(COMPANY_COUNTERS);
  const items = await batchGetAll(
    companies.flatMap((c) => [
      keys.user(c.id, c.ownerId),
      keys.providerType(c.id, 'TWILIO'),
      ...Array.from({ length: COMPANY_COUNTER_SHARDS }, (_, shard) => keys.companyCounters(c.id, shard)),
    ]),
    {
      ProjectionExpression: `PK, entity, companyId, #name, email, emailVerified, ${counterNames.map((_, i) => `#c${i}`).join(', ')}`,
      ExpressionAttributeNames: { '#name': 'name', ...Object.fromEntries(counterNames.map((name, i) => [`#c${i}`, name])) },
    },
  );
  for (const item of items) {
    const companyId = keyIds.companyOf(item.PK as string);
    if (item.entity === 'USER') owners.set(companyId, item as unknown as UserRecord);
    else if (item.entity === 'COMPANY_COUNTERS') counters.set(companyId, [...(counters.get(companyId) ?? []), item]);
    else connected.add(companyId);
  }
  return { owners, connected, counters };
}

function toAdminCompany(company: CompanyItem, details: Awaited<ReturnType<typeof companyDetails>>): AdminCompany {
  const { smsSent, smsReceived, openConversations, closedConversations } = sumCounts([
    company,
    ...(details.counters.get(company.id) ?? []),
  ]);
  const conversations = openConversations + closedConversations;
  const owner = details.owners.get(company.id);
  return {
    id: company.id,
    name: company.name,
    owner: owner ? { name: owner.name, email: owner.email, emailVerified: owner.emailVerified } : null,
    twilioConfigured: details.connected.has(company.id),
    hasActivity: smsSent + smsReceived + conversations > 0,
    stats: { smsSent, smsReceived },
    createdAt: company.createdAt,
  };
}

/** A cursor is the last listed company's sort key (`createdAt#id`); anything else is refused. */
function readCursor(cursor: string): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[\w-]+$/.test(sortKey)) throw badRequest('cursor is invalid');
  return sortKey;
}
