import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ConversationPage, ConversationStatusFilter } from '../../shared/contract/conversations';
import { AppError, badRequest } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { GSI1, GSI2, GSI3, keys } from '../lib/table';
import { readAssigneeCounts, readCompanyCounts } from './company-counters';
import { toConversationViews } from './conversation-views';
import type { ConversationRecord } from './records';

/**
 * The conversation list (GET /api/v1/conversations): newest activity first, totals from the company's
 * counters. A status alone is one Query on its index (GSI1 per status, GSI2 for both); with an
 * assignee one Query on that assignee's partition of GSI3 per status, and for both
 * statuses the OPEN and CLOSED partitions read side by side and merged by sort key. A page costs the
 * same whatever the company's size when it is asked for by cursor; `offset` (kept for API callers)
 * reads and drops the conversations before it.
 */

export interface ConversationListQuery {
  status: ConversationStatusFilter;
  /** `me`, `unassigned` or a member's id. */
  assignee?: string;
  limit: number;
  offset?: number;
  cursor?: string;
}

/**
 * What a list shows: a status filter, and an assignee — a member's id, null for unassigned,
 * undefined for anyone's.
 */
export interface ListFilters {
  status: ConversationStatusFilter;
  assigneeId?: string | null;
}

const ASSIGNEE_INVALID = 'assignee must be me, unassigned or a user id';

/**
 * The filters of a query for the caller: `me` is the caller. Any id of the product's shape is taken
 * (a member removed since still has conversations to hand over); the partition is always the caller's
 * company's, so another company's id lists nothing.
 */
export function listFilters(userId: string, query: Pick<ConversationListQuery, 'status' | 'assignee'>): ListFilters {
  const { status, assignee } = query;
  if (assignee === undefined) return { status };
  if (assignee === 'me') return { status, assigneeId: userId };
  if (assignee === 'unassigned') return { status, assigneeId: null };
  // Ids are the product's (UUIDs); NONE is the unassigned partition's own name, never a member's.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(assignee) || assignee === 'NONE') {
    throw badRequest(ASSIGNEE_INVALID, { fields: { assignee: ASSIGNEE_INVALID } });
  }
  return { status, assigneeId: assignee };
}

interface ConversationIndex {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  partition: string;
}

/** A list's partitions: all of one index, at least one. */
type Partitions = readonly [ConversationIndex, ...ConversationIndex[]];

/**
 * The index partitions that list the filters, newest first in each; the partition always comes from
 * the caller's company. Two for an assignee's conversations of both statuses (merged by sort key).
 */
function partitionsOf(companyId: string, filters: ListFilters): Partitions {
  // The key builders with an empty sort part give the partition in the one format table.ts defines.
  const { status, assigneeId } = filters;
  if (assigneeId !== undefined) {
    const partition = (s: 'OPEN' | 'CLOSED'): ConversationIndex => {
      const { GSI3PK } = keys.conversationByAssignee(companyId, assigneeId, s, '', '');
      return { indexName: GSI3.indexName, partitionKey: GSI3.partitionKey, sortKey: GSI3.sortKey, partition: GSI3PK };
    };
    return status === 'BOTH' ? [partition('OPEN'), partition('CLOSED')] : [partition(status)];
  }
  if (status === 'BOTH') {
    const { GSI2PK } = keys.conversationByActivity(companyId, '', '');
    return [{ indexName: GSI2.indexName, partitionKey: GSI2.partitionKey, sortKey: GSI2.sortKey, partition: GSI2PK }];
  }
  const { GSI1PK } = keys.conversationByStatus(companyId, status, '', '');
  return [{ indexName: GSI1.indexName, partitionKey: GSI1.partitionKey, sortKey: GSI1.sortKey, partition: GSI1PK }];
}

/** Where a page starts: below the cursor's position (and counted from its offset), or at `offset`; never both. */
export function pageStart(
  query: Pick<ConversationListQuery, 'cursor' | 'offset'>,
  filters: ListFilters,
): { sortKey: string | undefined; offset: number } {
  // An empty cursor (`?cursor=` from a client with no next page yet) is no cursor.
  const cursor = query.cursor || undefined;
  if (cursor !== undefined && query.offset !== undefined) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Use either offset or cursor, not both', {
      fields: { cursor: 'Use either offset or cursor, not both' },
    });
  }
  return cursor ? decodeCursor(cursor, filters) : { sortKey: undefined, offset: query.offset ?? 0 };
}

export async function listConversationPage(
  companyId: string,
  userId: string,
  query: ConversationListQuery,
): Promise<ConversationPage> {
  const filters = listFilters(userId, query);
  const partitions = partitionsOf(companyId, filters);
  const start = pageStart(query, filters);
  const [total, page] = await Promise.all([
    conversationTotal(companyId, filters),
    (async () => {
      const before = start.sortKey ?? (await sortKeyAfterSkipping(partitions, start.offset));
      // Skipping ran out of conversations: the offset is past the end.
      if (before === null) return { items: [], more: false };
      return readPage(partitions, before, query.limit);
    })(),
  ]);
  const last = page.items.at(-1);
  const nextCursor =
    page.more && last
      ? encodeCursor({
          filters,
          sortKey: sortKeyOf(partitions[0], last),
          offset: start.offset + page.items.length,
        })
      : null;
  return {
    // The reader's unread counts come with the page (one BatchGet of its markers).
    conversations: await toConversationViews(companyId, page.items, userId),
    total,
    pagination: { total, limit: query.limit, offset: start.offset, nextCursor },
  };
}

/**
 * The `count` most recently active conversations of the filters, newest first: one Query per
 * partition (two for an assignee's of both statuses), whatever the company's size. For lists that
 * look at a bounded window of the newest conversations (the unread filter and count). `attributes`:
 * only these of each (with the index's sort key), when the reader needs no more.
 */
export async function readListWindow<T = ConversationRecord>(
  companyId: string,
  filters: ListFilters,
  count: number,
  attributes?: readonly string[],
): Promise<T[]> {
  return (await readPage(partitionsOf(companyId, filters), undefined, count, attributes)).items as T[];
}

/**
 * The `limit` conversations below `before` (from the top when undefined), plus whether more follow:
 * `limit + 1` from each partition, side by side, merged newest first.
 */
async function readPage(
  partitions: Partitions,
  before: string | undefined,
  limit: number,
  attributes?: readonly string[],
): Promise<{ items: ConversationRecord[]; more: boolean }> {
  const pages = await Promise.all(
    partitions.map(async (index) => {
      const condition = keyCondition(index, before);
      const projection = attributes && [...attributes, index.sortKey];
      const res = await db.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: index.indexName,
          ...condition,
          ...(projection && {
            ProjectionExpression: projection.map((_, i) => `#a${i}`).join(', '),
            ExpressionAttributeNames: {
              ...condition.ExpressionAttributeNames,
              ...Object.fromEntries(projection.map((name, i) => [`#a${i}`, name])),
            },
          }),
          ScanIndexForward: false,
          Limit: limit + 1,
        }),
      );
      return (res.Items ?? []) as ConversationRecord[];
    }),
  );
  const items = partitions.length === 1 ? pages.flat() : newestFirst(partitions[0], pages.flat());
  return { items: items.slice(0, limit), more: items.length > limit };
}

/**
 * Conversations of several partitions, newest first. Once: while a status change is still reaching
 * the index, an item can show in both of its assignee's partitions.
 */
function newestFirst(index: ConversationIndex, items: ConversationRecord[]): ConversationRecord[] {
  const byKey = new Map(items.map((item) => [sortKeyOf(index, item), item]));
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0)).map(([, item]) => item);
}

/** Index entries one skipping Query reads. */
const SKIP_PAGE_SIZE = 1_000;

/**
 * Reads the first `count` index entries of the partitions merged newest first (their sort keys only)
 * and answers the last one's sort key: the page starts below it. undefined for a count of 0 (the
 * top); null when fewer exist. Holds one Query's page per partition at a time, whatever the count.
 */
async function sortKeyAfterSkipping(partitions: Partitions, count: number): Promise<string | undefined | null> {
  if (count === 0) return undefined;
  const streams = partitions.map((index) => sortKeysOf(index, count));
  const heads = await Promise.all(streams.map((stream) => stream.next()));
  let last: string | undefined;
  let remaining = count;
  while (remaining > 0) {
    let newest = -1;
    heads.forEach((head, i) => {
      const current = heads[newest];
      if (!head.done && (current === undefined || current.done || head.value > current.value)) newest = i;
    });
    const head = heads[newest];
    if (head === undefined || head.done) return null;
    // The same entry in two partitions (newestFirst) counts once.
    if (head.value !== last) remaining--;
    last = head.value;
    heads[newest] = await (streams[newest] as AsyncGenerator<string>).next();
  }
  return last;
}

/** The partition's sort keys newest first, at most `max`, one Query of up to SKIP_PAGE_SIZE at a time. */
async function* sortKeysOf(index: ConversationIndex, max: number): AsyncGenerator<string> {
  const condition = keyCondition(index, undefined);
  let read = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const res = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.indexName,
        ...condition,
        ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#sk': index.sortKey },
        ProjectionExpression: '#sk',
        ScanIndexForward: false,
        // DynamoDB refuses a Limit past 32 bits (any offset a caller sends must answer, not fail).
        Limit: Math.min(max - read, SKIP_PAGE_SIZE),
        ExclusiveStartKey,
      }),
    );
    for (const item of res.Items ?? []) {
      read++;
      yield sortKeyOf(index, item);
    }
    ExclusiveStartKey = res.LastEvaluatedKey;
  } while (ExclusiveStartKey && read < max);
}

function keyCondition(index: ConversationIndex, before: string | undefined) {
  return {
    KeyConditionExpression: before === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :before',
    ExpressionAttributeNames: { '#pk': index.partitionKey, ...(before === undefined ? {} : { '#sk': index.sortKey }) },
    ExpressionAttributeValues: before === undefined ? { ':pk': index.partition } : { ':pk': index.partition, ':before': before },
  };
}

/** An entry's sort key (`lastMessageAt#id`) in the index; the partitions of one list are all of one index. */
const sortKeyOf = (index: ConversationIndex, item: object) => (item as Record<string, string>)[index.sortKey] as string;

/** The filters' total from the counters every change of a conversation keeps (never a count query). */
async function conversationTotal(companyId: string, filters: ListFilters): Promise<number> {
  const { status, assigneeId } = filters;
  const { open, closed } =
    assigneeId === undefined
      ? await readCompanyCounts(companyId).then((c) => ({ open: c.openConversations, closed: c.closedConversations }))
      : await readAssigneeCounts(companyId, assigneeId);
  return status === 'OPEN' ? open : status === 'CLOSED' ? closed : open + closed;
}

/**
 * The cursor: where the next page starts (the last entry's index sort key, `lastMessageAt#id`), for
 * which filters, and at which position (echoed as `pagination.offset`). Opaque to callers but not
 * secret: whatever it says, the query stays in the caller's company partition and on the filters'
 * index, so a cursor can only choose where in the caller's own list a page starts. The assignee (`a`:
 * an id, null for unassigned) is absent without an assignee filter, as in cursors made before it.
 */
interface CursorPosition {
  filters: ListFilters;
  sortKey: string;
  offset: number;
}

const CURSOR_VERSION = 1;
const SORT_KEY_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#[A-Za-z0-9_-]{1,100}$/;

export function encodeCursor(position: CursorPosition): string {
  const { filters, sortKey, offset } = position;
  const assignee = filters.assigneeId === undefined ? {} : { a: filters.assigneeId };
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, f: filters.status, ...assignee, k: sortKey, o: offset })).toString(
    'base64url',
  );
}

function decodeCursor(cursor: string, filters: ListFilters): { sortKey: string; offset: number } {
  const invalid = () => new AppError(400, 'VALIDATION_FAILED', 'cursor is invalid', { fields: { cursor: 'cursor is invalid' } });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof fields !== 'object' || fields === null) throw invalid();
  const { v, f, a, k, o } = fields as Record<string, unknown>;
  // A cursor of other filters points into another partition: its position means nothing here.
  if (v !== CURSOR_VERSION || f !== filters.status || a !== filters.assigneeId) throw invalid();
  if (typeof k !== 'string' || typeof o !== 'number') throw invalid();
  const time = SORT_KEY_PATTERN.exec(k)?.[1];
  if (!time || Number.isNaN(Date.parse(time)) || !Number.isSafeInteger(o) || o < 1) throw invalid();
  return { sortKey: k, offset: o };
}
