import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ConversationPage, ConversationStatusFilter } from '../../shared/contract/conversations';
import { AppError } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { GSI1, GSI2, keys } from '../lib/table';
import { readCompanyCounts } from './company-counters';
import { toConversationViews } from './conversation-views';
import type { ConversationRecord } from './records';

/**
 * The conversation list (GET /api/v1/conversations): newest activity first, one Query on the index of
 * the filter (GSI1 per status, GSI2 for both), totals from the company's counters. A page costs the
 * same whatever the company's size when it is asked for by cursor; `offset` (kept for API callers)
 * reads and drops the conversations before it.
 */

export interface ConversationListQuery {
  status: ConversationStatusFilter;
  limit: number;
  offset?: number;
  cursor?: string;
}

export interface ConversationIndex {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  partition: string;
}

/** The index and partition that list a filter; the partition always comes from the caller's company. */
export function indexOf(companyId: string, filter: ConversationStatusFilter): ConversationIndex {
  // The key builders with an empty sort part give the partition in the one format table.ts defines.
  if (filter === 'BOTH') {
    const { GSI2PK } = keys.conversationByActivity(companyId, '', '');
    return { indexName: GSI2.indexName, partitionKey: GSI2.partitionKey, sortKey: GSI2.sortKey, partition: GSI2PK };
  }
  const { GSI1PK } = keys.conversationByStatus(companyId, filter, '', '');
  return { indexName: GSI1.indexName, partitionKey: GSI1.partitionKey, sortKey: GSI1.sortKey, partition: GSI1PK };
}

/** `readerId`: whose unread counts the page carries. */
export async function listConversationPage(
  companyId: string,
  query: ConversationListQuery,
  readerId?: string,
): Promise<ConversationPage> {
  // An empty cursor (`?cursor=` from a client with no next page yet) is no cursor.
  const cursor = query.cursor || undefined;
  if (cursor !== undefined && query.offset !== undefined) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Use either offset or cursor, not both', {
      fields: { cursor: 'Use either offset or cursor, not both' },
    });
  }
  const index = indexOf(companyId, query.status);
  const start = cursor ? decodeCursor(cursor, query.status) : { sortKey: undefined, offset: query.offset ?? 0 };
  const [total, page] = await Promise.all([
    conversationTotal(companyId, query.status),
    (async () => {
      const before = start.sortKey ?? (await sortKeyAfterSkipping(index, start.offset));
      // Skipping ran out of conversations: the offset is past the end.
      if (before === null) return { items: [], more: false };
      return readPage(index, before, query.limit);
    })(),
  ]);
  const last = page.items.at(-1);
  const nextCursor =
    page.more && last
      ? encodeCursor({ filter: query.status, sortKey: sortKeyOf(index, last), offset: start.offset + page.items.length })
      : null;
  return {
    conversations: await toConversationViews(companyId, page.items, readerId),
    total,
    pagination: { total, limit: query.limit, offset: start.offset, nextCursor },
  };
}

/** One Query: the `limit` conversations below `before` (from the top when undefined), plus one to know whether more follow. */
async function readPage(
  index: ConversationIndex,
  before: string | undefined,
  limit: number,
): Promise<{ items: ConversationRecord[]; more: boolean }> {
  const res = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index.indexName,
      ...keyCondition(index, before),
      ScanIndexForward: false,
      Limit: limit + 1,
    }),
  );
  const items = (res.Items ?? []) as ConversationRecord[];
  return { items: items.slice(0, limit), more: items.length > limit };
}

/** Index entries one skipping Query reads. */
const SKIP_PAGE_SIZE = 1_000;

/**
 * Reads the first `count` index entries (their sort keys only) and answers the last one's sort key:
 * the page starts below it. undefined for a count of 0 (the top); null when fewer exist.
 */
async function sortKeyAfterSkipping(index: ConversationIndex, count: number): Promise<string | undefined | null> {
  let remaining = count;
  let last: string | undefined;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  const condition = keyCondition(index, undefined);
  while (remaining > 0) {
    const res = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.indexName,
        ...condition,
        ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#sk': index.sortKey },
        ProjectionExpression: '#sk',
        ScanIndexForward: false,
        // DynamoDB refuses a Limit past 32 bits (any offset a caller sends must answer, not fail).
        Limit: Math.min(remaining, SKIP_PAGE_SIZE),
        ExclusiveStartKey,
      }),
    );
    const items = res.Items ?? [];
    remaining -= items.length;
    if (items.length > 0) last = sortKeyOf(index, items.at(-1) as Record<string, unknown>);
    ExclusiveStartKey = res.LastEvaluatedKey;
    if (remaining > 0 && !ExclusiveStartKey) return null;
  }
  return last;
}

function keyCondition(index: ConversationIndex, before: string | undefined) {
  return {
    KeyConditionExpression: before === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :before',
    ExpressionAttributeNames: { '#pk': index.partitionKey, ...(before === undefined ? {} : { '#sk': index.sortKey }) },
    ExpressionAttributeValues: before === undefined ? { ':pk': index.partition } : { ':pk': index.partition, ':before': before },
  };
}

export const sortKeyOf = (index: ConversationIndex, item: object) => (item as Record<string, string>)[index.sortKey] as string;

/** The filter's total from the counters every change of a conversation keeps (never a count query). */
async function conversationTotal(companyId: string, filter: ConversationStatusFilter): Promise<number> {
  const { openConversations: open, closedConversations: closed } = await readCompanyCounts(companyId);
  return filter === 'OPEN' ? open : filter === 'CLOSED' ? closed : open + closed;
}

/**
 * The cursor: where the next page starts (the last entry's index sort key, `lastMessageAt#id`), for
 * which filter, and at which position (echoed as `pagination.offset`). Opaque to callers but not
 * secret: whatever it says, the query stays in the caller's company partition and on the filter's
 * index, so a cursor can only choose where in the caller's own list a page starts.
 */
interface CursorPosition {
  filter: ConversationStatusFilter;
  sortKey: string;
  offset: number;
}

const CURSOR_VERSION = 1;
const SORT_KEY_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#[A-Za-z0-9_-]{1,100}$/;

export function encodeCursor(position: CursorPosition): string {
  const { filter, sortKey, offset } = position;
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, f: filter, k: sortKey, o: offset })).toString('base64url');
}

export function decodeCursor(cursor: string, filter: ConversationStatusFilter): { sortKey: string; offset: number } {
  const invalid = () => new AppError(400, 'VALIDATION_FAILED', 'cursor is invalid', { fields: { cursor: 'cursor is invalid' } });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof fields !== 'object' || fields === null) throw invalid();
  const { v, f, k, o } = fields as Record<string, unknown>;
  // A cursor of another filter points into another index: its position means nothing here.
  if (v !== CURSOR_VERSION || f !== filter || typeof k !== 'string' || typeof o !== 'number') throw invalid();
  const time = SORT_KEY_PATTERN.exec(k)?.[1];
  if (!time || Number.isNaN(Date.parse(time)) || !Number.isSafeInteger(o) || o < 1) throw invalid();
  return { sortKey: k, offset: o };
}
