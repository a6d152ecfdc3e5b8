import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_COMPANIES_PAGE_SIZE, type AdminCompany, type AdminOverview } from '../../shared/contract/admin';
import type { CompanyRecord, UserRecord } from '../auth/accounts';
import { COMPANY_COUNTERS } from '../conversations/records';
import { badRequest } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { GSI1, keys } from '../lib/table';
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

/** Owners and Twilio connections of a page's companies: one BatchGet (at most 100 keys). */
async function companyDetails(companies: CompanyItem[]) {
  const TableName = tableName();
  const owners = new Map<string, UserRecord>();
  const connected = new Set<string>();
  let pending: Record<string, unknown>[] = companies.flatMap((c) => [
    keys.user(c.id, c.ownerId),
    keys.providerType(c.id, 'TWILIO'),
  ]);
  while (pending.length > 0) {
    const res = await db.send(
      new BatchGetCommand({
        RequestItems: {
          [TableName]: {
            Keys: pending,
            ProjectionExpression: 'PK, entity, companyId, #name, email, emailVerified',
            ExpressionAttributeNames: { '#name': 'name' },
          },
        },
      }),
    );
    for (const item of res.Responses?.[TableName] ?? []) {
      if (item.entity === 'USER') owners.set(item.companyId as string, item as UserRecord);
      else connected.add((item.PK as string).slice('COMPANY#'.length));
    }
    pending = (res.UnprocessedKeys?.[TableName]?.Keys ?? []) as Record<string, unknown>[];
  }
  return { owners, connected };
}

function toAdminCompany(company: CompanyItem, details: Awaited<ReturnType<typeof companyDetails>>): AdminCompany {
  const count = (name: string) => Number(company[name] ?? 0);
  const smsSent = count(COMPANY_COUNTERS.smsSent);
  const smsReceived = count(COMPANY_COUNTERS.smsReceived);
  const conversations = count(COMPANY_COUNTERS.openConversations) + count(COMPANY_COUNTERS.closedConversations);
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
