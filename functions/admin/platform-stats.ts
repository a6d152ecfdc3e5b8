import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { keys } from '../lib/table';
import type { TransactItem } from '../lib/transact';

/**
 * The platform's totals, kept in the same transactions as what they count (a sign-up, a verification,
 * an accepted invitation, a removal), so the admin overview reads a few items instead of every company.
 */
export const PLATFORM_STATS_SHARDS = 8;

export interface PlatformStatsChange {
  companies?: number;
  users?: number;
  verifiedUsers?: number;
}

export interface PlatformStats {
  totalCompanies: number;
  totalUsers: number;
  verifiedUsers: number;
}

/** The change as one transaction item, on a shard picked at random. */
export function platformStatsItem(change: PlatformStatsChange): TransactItem {
  const shard = Math.floor(Math.random() * PLATFORM_STATS_SHARDS);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.platformStats(shard),
      UpdateExpression: 'SET entity = :entity ADD companyCount :companies, userCount :users, verifiedUserCount :verified',
      ExpressionAttributeValues: {
        ':entity': 'PLATFORM_STATS',
        ':companies': change.companies ?? 0,
        ':users': change.users ?? 0,
        ':verified': change.verifiedUsers ?? 0,
      },
    },
  };
}

/** The sum of every shard: a shard left unread would make the totals short, so none is (lib/batch-get). */
export async function readPlatformStats(): Promise<PlatformStats> {
  const shards = await batchGetAll(
    Array.from({ length: PLATFORM_STATS_SHARDS }, (_, i) => keys.platformStats(i)),
    { ConsistentRead: true },
  );
  const sum = (name: string) => shards.reduce((total, shard) => total + Number(shard[name] ?? 0), 0);
  return { totalCompanies: sum('companyCount'), totalUsers: sum('userCount'), verifiedUsers: sum('verifiedUserCount') };
}
