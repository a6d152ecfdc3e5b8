import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { logError } from '../lib/log';
import { queryPages, queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { disconnectProvider } from '../settings/disconnect-provider';
import type { ProviderRecord } from '../settings/records';

/**
 * The background half of deleting a company (functions/company/deletion.ts started it). Every step
 * only deletes, so a step run twice (an SQS redelivery) does no harm.
 */

/** Puts each provider's Twilio numbers back as a disconnect does; a Twilio failure is logged, not fatal. */
export async function restoreTwilioNumbers(companyId: string): Promise<void> {
  const providers = await queryPrefix<ProviderRecord>(keys.providersOf(companyId));
  for (const provider of providers) {
    await disconnectProvider(companyId, provider.id).catch((error: unknown) =>
      logError({ route: 'companyDeletion', companyId, providerId: provider.id }, error),
    );
  }
}

type Key = Record<string, unknown>;

/**
 * One page of the table scan: deletes every item that names the company — its own partitions
 * (`COMPANY#<id>`, `COMPANY#<id>#…`), its throttle windows, and every global item carrying its `companyId` (addresses,
 * numbers, webhook ids, sessions, refresh tokens, sockets, tickets, message and call sids…), whatever
 * key builders exist now or later (functions/lib/table.ts). Answers where the next page starts.
 */
export async function sweepPage(companyId: string, cursor: Key | undefined): Promise<Key | undefined> {
  const page = await db.send(
    new ScanCommand({
      TableName: tableName(),
      ExclusiveStartKey: cursor,
      // Company ids are UUIDs: a partition key containing one is that company's (throttle windows too).
      FilterExpression: 'contains(PK, :companyId) OR companyId = :companyId',
      ExpressionAttributeValues: { ':companyId': companyId },
      ProjectionExpression: 'PK, SK',
    }),
  );
  await deleteAll((page.Items ?? []) as Key[]);
  return page.LastEvaluatedKey;
}

/**
 * The company's own partition once more, after the scan: a socket's $disconnect that ran late may
 * have written to it again (its user's set of sockets). One Query, paged.
 */
export async function sweepOwnPartition(companyId: string): Promise<void> {
  const pages = queryPages<Key>({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.company(companyId).PK },
    ProjectionExpression: 'PK, SK',
  });
  for await (const items of pages) await deleteAll(items);
}

/** BatchWriteItem takes 25 deletions; what DynamoDB leaves unprocessed is sent again. */
async function deleteAll(items: Key[]): Promise<void> {
  const TableName = tableName();
  for (let i = 0; i < items.length; i += 25) {
    let requests = items.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [TableName]: requests } }));
      requests = (result.UnprocessedItems?.[TableName] ?? []) as typeof requests;
      if (attempt > 8 && requests.length) throw new Error('DynamoDB left deletions unprocessed');
    }
  }
}
