import { UNREAD_WINDOW } from '../../shared/constants';
import type { ConversationPage } from '../../shared/contract/conversations';
import { batchGetAll } from '../lib/batch-get';
import { keys } from '../lib/table';
import type { ViewerPrincipal } from '../team/visibility';
import { toConversationViews } from './conversation-views';
import {
  type ConversationListQuery,
  encodeCursor,
  type ListFilters,
  listFilters,
  listViewerOf,
  pageStart,
  readListWindow,
} from './list';
import type { ConversationRecord } from './records';
import { type UnreadCounters, unreadCountsFor } from './unread';

/**
 * What is unread among the UNREAD_WINDOW most recently active conversations of the filters (issue
 * 27): the nav's count and the list's `unread=true`. A bounded read whatever the company's size: the
 * list's window reader (one Query per partition) with only what the rule needs, then the reader's
 * markers (BatchGets of 100 keys). Only what the reader sees is counted (docs/product.md: Who sees
 * what): an agent's window is that of their own view of the list.
 */

type WindowEntry = UnreadCounters & Pick<ConversationRecord, 'id' | 'lastMessageAt'>;

/** Every index orders conversations by this (keys.conversationByStatus/ByActivity/ByAssignee). */
const sortKeyOf = (c: WindowEntry) => `${c.lastMessageAt}#${c.id}`;

/** The window's conversations with unread for the reader, newest first. */
async function unreadInWindow(reader: ViewerPrincipal, filters: ListFilters) {
  const { companyId, userId: readerId } = reader;
  // One more than the window: whether it is complete, without a second read.
  const read = await readListWindow<WindowEntry>(await listViewerOf(reader), filters, UNREAD_WINDOW + 1, [
    'id',
    'lastMessageAt',
    'inboundCount',
    'lastInboundAt',
  ]);
  const window = read.slice(0, UNREAD_WINDOW);
  const counts = await unreadCountsFor(companyId, readerId, window);
  return { unread: window.filter((c) => (counts.get(c.id) ?? 0) > 0), complete: read.length <= UNREAD_WINDOW };
}

/** GET /api/v1/conversations/unread: the open conversations with unread for the caller, in the window. */
export async function countUnread(reader: ViewerPrincipal): Promise<{ count: number; complete: boolean }> {
  const { unread, complete } = await unreadInWindow(reader, { status: 'OPEN' });
  return { count: unread.length, complete };
}

/**
 * The list with `unread=true`: the window's unread conversations, paged by cursor (or offset) within
 * it; the total counts them. Only the page's conversations are then read whole.
 */
export async function listUnreadPage(reader: ViewerPrincipal, query: ConversationListQuery): Promise<ConversationPage> {
  const { companyId, userId: readerId } = reader;
  const filters = listFilters(readerId, query);
  const { sortKey: before, offset } = pageStart(query, filters);
  const { unread } = await unreadInWindow(reader, filters);
  // A cursor says where the last page ended; conversations that became read meanwhile do not shift it.
  const rest = before !== undefined ? unread.filter((c) => sortKeyOf(c) < before) : unread.slice(offset);
  const page = rest.slice(0, query.limit);
  const records = await batchGetAll<ConversationRecord>(page.map((c) => keys.conversation(companyId, c.id)));
  const byId = new Map(records.map((r) => [r.id, r]));
  const ordered = page.flatMap((c) => byId.get(c.id) ?? []);
  const last = page.at(-1);
  const nextCursor =
    rest.length > page.length && last ? encodeCursor({ filters, sortKey: sortKeyOf(last), offset: offset + page.length }) : null;
  return {
    conversations: await toConversationViews(companyId, ordered, readerId),
    total: unread.length,
    pagination: { total: unread.length, limit: query.limit, offset, nextCursor },
  };
}
