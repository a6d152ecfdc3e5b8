import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import type { TransactItem } from '../lib/transact';
import { COMPANY_COUNTERS, type CompanyCounter, type CompanyCounts, sumCounts } from './records';

/**
 * The company's counters live in shards (keys.companyCounters), not on the company item: every
 * message's transaction adds to them, and at a busy company's peak (10–30 texts a second) one item
 * written by every message is in most of those transactions at once, so they cancel each other
 * (TransactionConflict; issue 22). Spread over 8 shards, two messages of different conversations meet
 * on one in an eighth of the cases, and the only item a conversation's messages all contend for is
 * the conversation itself. Exact, since each change stays in the transaction of what it counts; read
 * by summing the shards — one query, which also takes the totals kept on the company item itself
 * before the shards existed, so a deployed table needs no migration.
 */
export const COMPANY_COUNTER_SHARDS = 8;

/** Adds to the company's counters (negative to take away), in the transaction of what they count. */
export function companyCountersItem(
  companyId: string,
  changes: Partial<CompanyCounts>,
  shard = Math.floor(Math.random() * COMPANY_COUNTER_SHARDS),
): TransactItem {
  const entries = Object.entries(changes).filter(([, n]) => n) as [CompanyCounter, number][];
  return {
    Update: {
      TableName: tableName(),
      Key: keys.companyCounters(companyId, shard),
      UpdateExpression: `SET entity = :entity, companyId = :companyId ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, COMPANY_COUNTERS[name]])),
      ExpressionAttributeValues: {
        ':entity': 'COMPANY_COUNTERS',
        ':companyId': companyId,
        ...Object.fromEntries(entries.map(([, n], i) => [`:c${i}`, n])),
      },
    },
  };
}

/** The company's counters: the company item and its shards, summed. */
export async function readCompanyCounts(companyId: string): Promise<CompanyCounts> {
  const names = Object.values(COMPANY_COUNTERS);
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :meta)',
      ProjectionExpression: names.map((_, i) => `#c${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
      ExpressionAttributeValues: { ':pk': keys.company(companyId).PK, ':meta': keys.company(companyId).SK },
    }),
  );
  return sumCounts(Items);
}
