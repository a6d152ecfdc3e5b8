import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { UNREAD_WINDOW } from '../../shared/constants';
import type { ConversationPage } from '../../shared/contract/conversations';
import { AppError } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { toConversationViews } from './conversation-views';
import { type ConversationIndex, type ConversationListQuery, decodeCursor, encodeCursor, indexOf, sortKeyOf } from './list';
import type { ConversationRecord } from './records';
import { type UnreadCounters, unreadCountsFor } from './unread';

/**
 * What is unread among the UNREAD_WINDOW most recently active conversations of a filter (issue 27): the
 * nav's count and the list's `unread=true`. A bounded read whatever the company's size: one Query of
 * the window with only what the rule needs, then the reader's markers (BatchGets of 100 keys).
 */

type WindowEntry = UnreadCounters & Pick<ConversationRecord, 'id'> & Record<string, unknown>;

/**
 * The `size` most recently active conversations of the index's partition, newest first, with only
 * their counters and sort key; `complete` false when more exist beyond them.
 * Seam (issue 27): the assignee filter reads its windows through the list's own reader once merged.
 */
async function readWindow(index: ConversationIndex, size: number): Promise<{ entries: WindowEntry[]; complete: boolean }> {
  const entries: WindowEntry[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const res = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey, '#id': 'id' },
        ExpressionAttributeValues: { ':pk': index.partition },
        ProjectionExpression: '#id, #sk, inboundCount, lastInboundAt',
        ScanIndexForward: false,
        // One more than the window: whether it is complete, without a second read.
        Limit: size + 1 - entries.length,
        ExclusiveStartKey,
      }),
    );
    entries.push(...((res.Items ?? []) as WindowEntry[]));
    ExclusiveStartKey = res.LastEvaluatedKey;
  } while (ExclusiveStartKey && entries.length <= size);
  return { entries: entries.slice(0, size), complete: entries.length <= size };
}

/** The window's conversations with unread for the reader, newest first. */
async function unreadInWindow(companyId: string, readerId: string, index: ConversationIndex) {
  const window = await readWindow(index, UNREAD_WINDOW);
  const counts = await unreadCountsFor(companyId, readerId, window.entries);
  return { unread: window.entries.filter((c) => (counts.get(c.id) ?? 0) > 0), complete: window.complete };
}

/** GET /api/v1/conversations/unread: the open conversations with unread for the caller, in the window. */
export async function countUnread(companyId: string, userId: string): Promise<{ count: number; complete: boolean }> {
  const { unread, complete } = await unreadInWindow(companyId, userId, indexOf(companyId, 'OPEN'));
  return { count: unread.length, complete };
}

/**
 * The list with `unread=true`: the window's unread conversations, paged by cursor (or offset) within
 * it; the total counts them. Only the page's conversations are then read whole.
 */
export async function listUnreadPage(
  companyId: string,
  readerId: string,
  query: ConversationListQuery,
): Promise<ConversationPage> {
  const cursor = query.cursor || undefined;
  if (cursor !== undefined && query.offset !== undefined) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Use either offset or cursor, not both', {
      fields: { cursor: 'Use either offset or cursor, not both' },
    });
  }
  const index = indexOf(companyId, query.status);
  const start = cursor ? decodeCursor(cursor, query.status) : undefined;
  const { unread } = await unreadInWindow(companyId, readerId, index);
  const offset = start?.offset ?? query.offset ?? 0;
  // A cursor says where the last page ended; conversations that became read meanwhile do not shift it.
  const rest = start ? unread.filter((c) => sortKeyOf(index, c) < start.sortKey) : unread.slice(offset);
  const page = rest.slice(0, query.limit);
  const records = await batchGetAll<ConversationRecord>(page.map((c) => keys.conversation(companyId, c.id)));
  const byId = new Map(records.map((r) => [r.id, r]));
  const ordered = page.flatMap((c) => byId.get(c.id) ?? []);
  const last = page.at(-1);
  const nextCursor =
    rest.length > page.length && last
      ? encodeCursor({ filter: query.status, sortKey: sortKeyOf(index, last), offset: offset + page.length })
      : null;
  return {
    conversations: await toConversationViews(companyId, ordered, readerId),
    total: unread.length,
    pagination: { total: unread.length, limit: query.limit, offset, nextCursor },
  };
}
