import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { prefixQuery } from '../lib/query';
import { keys } from '../lib/table';
import type { TransactItem } from '../lib/transact';
import {
  assigneeChannelCounter,
  assigneeCounter,
  COMPANY_COUNTERS,
  type CompanyCounter,
  type CompanyCounts,
  type ConversationRecord,
  channelCounter,
  hasChannelEntry,
  sumCounts,
} from './records';

/**
 * The company's counters live in shards (keys.companyCounters), not on the company item: every
 * message's transaction adds to them, and at a busy company's peak (10–30 texts a second) one item
 * written by every message is in most of those transactions at once, so they cancel each other
 * (TransactionConflict). Spread over 8 shards, two messages of different conversations meet
 * on one in an eighth of the cases, and the only item a conversation's messages all contend for is
 * the conversation itself. Exact, since each change stays in the transaction of what it counts; read
 * by summing the shards — one query, which also takes the totals kept on the company item itself
 * before the shards existed, so a deployed table needs no migration.
 */
export const COMPANY_COUNTER_SHARDS = 8;

type CountedAs = Pick<ConversationRecord, 'assignee' | 'status' | 'channelId'>;

/**
 * The per-assignee, per-channel and per-assignee-and-channel counter changes of a conversation whose index entries go from
 * `before` to `after` (undefined: no entry, not counted; records.ts hasAssigneeEntry). `before` is the
 * item as read: its channel is counted only if it had its channel entry (records.ts hasChannelEntry),
 * and `after` always has both, as every write of the entries writes them all (conversationIndexEntries).
 */
export function assigneeCountChanges(before: CountedAs | undefined, after: CountedAs | undefined): Record<string, number> {
  const changes: Record<string, number> = {};
  const add = (name: string, n: number) => {
    changes[name] = (changes[name] ?? 0) + n;
  };
  if (before) {
    const assigneeId = before.assignee?.id ?? null;
    add(assigneeCounter(assigneeId, before.status), -1);
    if (hasChannelEntry(before as ConversationRecord)) {
      add(channelCounter(before.channelId, before.status), -1);
      add(assigneeChannelCounter(assigneeId, before.channelId, before.status), -1);
    }
  }
  if (after) {
    const assigneeId = after.assignee?.id ?? null;
    add(assigneeCounter(assigneeId, after.status), 1);
    add(channelCounter(after.channelId, after.status), 1);
    add(assigneeChannelCounter(assigneeId, after.channelId, after.status), 1);
  }
  // The same assignee, channel and status before and after: nothing moves.
  return Object.fromEntries(Object.entries(changes).filter(([, n]) => n !== 0));
}

/**
 * Adds to the company's counters (negative to take away), in the transaction of what they count;
 * `assigned` by attribute name (assigneeCountChanges).
 */
export function companyCountersItem(
  companyId: string,
  changes: Partial<CompanyCounts>,
  assigned: Record<string, number> = {},
  shard = Math.floor(Math.random() * COMPANY_COUNTER_SHARDS),
): TransactItem {
  const entries = [
    ...(Object.entries(changes) as [CompanyCounter, number][]).map(([counter, n]) => [COMPANY_COUNTERS[counter], n] as const),
    ...Object.entries(assigned),
  ].filter(([, n]) => n);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.companyCounters(companyId, shard),
      UpdateExpression: `SET entity = :entity, companyId = :companyId ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: {
        ':entity': 'COMPANY_COUNTERS',
        ':companyId': companyId,
        ...Object.fromEntries(entries.map(([, n], i) => [`:c${i}`, n])),
      },
    },
  };
}

/**
 * The open and closed conversations of an assignee (null: unassigned), summed over the shards: one
 * query of the two attributes.
 */
export async function readAssigneeCounts(
  companyId: string,
  assigneeId: string | null,
): Promise<{ open: number; closed: number }> {
  const names = [assigneeCounter(assigneeId, 'OPEN'), assigneeCounter(assigneeId, 'CLOSED')] as const;
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...prefixQuery(keys.companyWithCountersOf(companyId), { projection: '#open, #closed' }),
      ExpressionAttributeNames: { '#open': names[0], '#closed': names[1] },
    }),
  );
  const sum = (name: string) => Items.reduce((total, item) => total + Number(item[name] ?? 0), 0);
  return { open: sum(names[0]), closed: sum(names[1]) };
}

/** The company's counters: the company item and its shards, summed. */
export async function readCompanyCounts(companyId: string): Promise<CompanyCounts> {
  const names = Object.values(COMPANY_COUNTERS);
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...prefixQuery(keys.companyWithCountersOf(companyId), { projection: names.map((_, i) => `#c${i}`).join(', ') }),
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
    }),
  );
  return sumCounts(Items);
}

/**
 * Named counters (assigneeCounter, channelCounter) summed over the shards: one query of just those
 * attributes. An agent's list total reads its visible channels' and its own assignee counters at once.
 */
export async function readNamedCounts(companyId: string, names: readonly string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...prefixQuery(keys.companyWithCountersOf(companyId), { projection: names.map((_, i) => `#n${i}`).join(', ') }),
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
    }),
  );
  return new Map(names.map((name) => [name, Items.reduce((total, item) => total + Number(item[name] ?? 0), 0)]));
}
