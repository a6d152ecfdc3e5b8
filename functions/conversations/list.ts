import type { ConversationPage, ConversationStatusFilter } from '../../shared/contract/conversations';
import { seesWholeCompany } from '../../shared/visibility';
import { AppError, badRequest } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { queryPages, queryPrefix } from '../lib/query';
import { GSI1, GSI2, GSI3, GSI4, keys } from '../lib/table';
import { type LoadedViewer, loadViewer, type ViewerPrincipal, visibleChannelIds } from '../team/visibility';
import { readAssigneeCounts, readCompanyCounts, readNamedCounts } from './company-counters';
import { toConversationViews } from './conversation-views';
import { assigneeChannelCounter, assigneeCounter, type ConversationRecord, channelCounter } from './records';

/**
 * The conversation list (GET /api/v1/conversations): newest activity first, totals from the company's
 * counters. For owners and admins a status alone is one Query on its index (GSI1 per status, GSI2 for
 * both); with an assignee one Query on that assignee's partition of GSI3 per status, and for both
 * statuses the OPEN and CLOSED partitions read side by side and merged by sort key. An agent sees only
 * their own view (agentSources; docs/product.md: Who sees what): their channels' partitions of GSI4,
 * their own of GSI3 and their mention grants, merged the same way. A page costs the same whatever the
 * company's size when it is asked for by cursor; `offset` (kept for API callers) reads and drops the
 * conversations before it.
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

/**
 * Where a list's conversations come from, each newest first by `lastMessageAt#id` (every index's sort
 * key has that form, so sources of different indexes merge): an index partition, kept whole or
 * narrowed to some channels (an agent's view of a colleague's partition), or an agent's mention
 * grants, read whole (few by nature: keys.mentionGrant).
 */
type Source =
  | { kind: 'index'; index: ConversationIndex; channelIds?: readonly string[] }
  | { kind: 'granted'; items: readonly ConversationRecord[] };

/** A list's sources: at least one. */
type Sources = readonly [Source, ...Source[]];

interface Entry {
  sortKey: string;
  item: ConversationRecord;
}

const statusesOf = (status: ConversationStatusFilter): ('OPEN' | 'CLOSED')[] =>
  status === 'BOTH' ? ['OPEN', 'CLOSED'] : [status];

const gsi3 = (companyId: string, assigneeId: string | null, status: 'OPEN' | 'CLOSED'): Source => {
  const { GSI3PK } = keys.conversationByAssignee(companyId, assigneeId, status, '', '');
  return {
    kind: 'index',
    index: { indexName: GSI3.indexName, partitionKey: GSI3.partitionKey, sortKey: GSI3.sortKey, partition: GSI3PK },
  };
};

const gsi4 = (companyId: string, channelId: string, status: 'OPEN' | 'CLOSED'): Source => {
  const { GSI4PK } = keys.conversationByChannel(companyId, channelId, status, '', '');
  return {
    kind: 'index',
    index: { indexName: GSI4.indexName, partitionKey: GSI4.partitionKey, sortKey: GSI4.sortKey, partition: GSI4PK },
  };
};

/**
 * The index partitions that list the filters for the whole company (owners and admins), newest first
 * in each; the partition always comes from the caller's company. Two for an assignee's conversations
 * of both statuses (merged by sort key).
 */
function companySources(companyId: string, filters: ListFilters): Sources {
  // The key builders with an empty sort part give the partition in the one format table.ts defines.
  const { status, assigneeId } = filters;
  if (assigneeId !== undefined) return statusesOf(status).map((s) => gsi3(companyId, assigneeId, s)) as [Source, ...Source[]];
  if (status === 'BOTH') {
    const { GSI2PK } = keys.conversationByActivity(companyId, '', '');
    return [
      {
        kind: 'index',
        index: { indexName: GSI2.indexName, partitionKey: GSI2.partitionKey, sortKey: GSI2.sortKey, partition: GSI2PK },
      },
    ];
  }
  const { GSI1PK } = keys.conversationByStatus(companyId, status, '', '');
  return [
    {
      kind: 'index',
      index: { indexName: GSI1.indexName, partitionKey: GSI1.partitionKey, sortKey: GSI1.sortKey, partition: GSI1PK },
    },
  ];
}

/** Who is listing: the whole company (owners and admins) or an agent's view (functions/team/visibility.ts). */
export type ListViewer = LoadedViewer & {
  companyId: string;
  /** An agent's granted conversations, read once a request (the page and its total both need them). */
  granted: () => Promise<ConversationRecord[]>;
};

/**
 * An agent's view (docs/product.md: Who sees what): the channel partitions (GSI4) of every channel
 * they see, their own assignee partitions (GSI3) for what is assigned to them on other channels, and
 * the conversations their mention grants name. A colleague's or the unassigned partition (GSI3) is
 * narrowed to the channels the agent sees, with the grants among them. Each source is read below one
 * sort key and the whole merged newest first, so one cursor pages through all of them.
 */
async function agentSources(viewer: ListViewer, filters: ListFilters): Promise<Sources> {
  const { companyId, userId } = viewer;
  const visible = visibleChannelIds(viewer) as readonly string[];
  const statuses = statusesOf(filters.status);
  if (filters.assigneeId === userId) return statuses.map((s) => gsi3(companyId, userId, s)) as [Source, ...Source[]];
  const granted = (await viewer.granted()).filter(
    (c) =>
      statuses.includes(c.status as 'OPEN' | 'CLOSED') &&
      (filters.assigneeId === undefined || (c.assignee?.id ?? null) === filters.assigneeId),
  );
  const grants: Source = { kind: 'granted', items: granted };
  if (filters.assigneeId !== undefined) {
    const assigneeId = filters.assigneeId;
    const narrowed = visible.length
      ? statuses.map(
          (s): Source => ({ ...(gsi3(companyId, assigneeId, s) as Extract<Source, { kind: 'index' }>), channelIds: visible }),
        )
      : [];
    return [grants, ...narrowed];
  }
  return [
    grants,
    ...visible.flatMap((channelId) => statuses.map((s) => gsi4(companyId, channelId, s))),
    ...statuses.map((s) => gsi3(companyId, userId, s)),
  ];
}

/** The conversations an agent's mention grants name, newest first (a few: keys.mentionGrant). */
async function grantedConversations(companyId: string, userId: string): Promise<ConversationRecord[]> {
  const prefix = keys.mentionGrantsOf(companyId, userId);
  const grants = await queryPrefix<{ SK: string }>(prefix, { projection: 'SK' });
  const ids = grants.map((g) => g.SK.slice(prefix.SKPrefix.length)).filter(Boolean);
  if (ids.length === 0) return [];
  const records = await batchGetAll<ConversationRecord>(ids.map((id) => keys.conversation(companyId, id)));
  return records.sort((a, b) => (sortKeyOfRecord(a) < sortKeyOfRecord(b) ? 1 : -1));
}

const sortKeyOfRecord = (c: Pick<ConversationRecord, 'lastMessageAt' | 'id'>) => `${c.lastMessageAt}#${c.id}`;

/** The caller's sources: the whole company's partitions for owners and admins, an agent's view otherwise. */
async function sourcesOf(viewer: ListViewer, filters: ListFilters): Promise<Sources> {
  return seesWholeCompany(viewer.role) ? companySources(viewer.companyId, filters) : agentSources(viewer, filters);
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

/** The viewer of a request: nothing read for owners and admins; an agent's inboxes and the channels' routing. */
export async function listViewerOf(principal: ViewerPrincipal): Promise<ListViewer> {
  // An agent's grants are read beside their viewer (every agent's page needs both); owners' never.
  const [viewer, granted] = await Promise.all([
    loadViewer(principal),
    seesWholeCompany(principal.role) ? [] : grantedConversations(principal.companyId, principal.userId),
  ]);
  return { ...viewer, companyId: principal.companyId, granted: async () => granted };
}

export async function listConversationPage(principal: ViewerPrincipal, query: ConversationListQuery): Promise<ConversationPage> {
  const { companyId, userId } = principal;
  const filters = listFilters(userId, query);
  const start = pageStart(query, filters);
  const viewer = await listViewerOf(principal);
  const sources = await sourcesOf(viewer, filters);
  const [total, page] = await Promise.all([
    conversationTotal(viewer, filters),
    (async () => {
      const before = start.sortKey ?? (await sortKeyAfterSkipping(sources, start.offset));
      // Skipping ran out of conversations: the offset is past the end.
      if (before === null) return { items: [], more: false };
      return readPage(sources, before, query.limit);
    })(),
  ]);
  const last = page.items.at(-1);
  const nextCursor =
    page.more && last ? encodeCursor({ filters, sortKey: last.sortKey, offset: start.offset + page.items.length }) : null;
  return {
    // The reader's unread counts come with the page (one BatchGet of its markers).
    conversations: await toConversationViews(
      companyId,
      page.items.map((e) => e.item),
      userId,
    ),
    total,
    pagination: { total, limit: query.limit, offset: start.offset, nextCursor },
  };
}

/**
 * The `count` most recently active conversations of the filters the viewer sees, newest first: one
 * Query per source, whatever the company's size. For lists that look at a bounded window of the newest
 * conversations (the unread filter and count). `attributes`: only these of each (with the index's
 * sort key, and the channel of an agent's narrowed source), when the reader needs no more.
 */
export async function readListWindow<T = ConversationRecord>(
  viewer: ListViewer,
  filters: ListFilters,
  count: number,
  attributes?: readonly string[],
): Promise<T[]> {
  return (await readPage(await sourcesOf(viewer, filters), undefined, count, attributes)).items.map((e) => e.item) as T[];
}

/**
 * The `limit` conversations below `before` (from the top when undefined), plus whether more follow:
 * `limit + 1` from each source, side by side, merged newest first.
 */
async function readPage(
  sources: Sources,
  before: string | undefined,
  limit: number,
  attributes?: readonly string[],
): Promise<{ items: Entry[]; more: boolean }> {
  const pages = await Promise.all(sources.map((source) => readSource(source, before, limit + 1, attributes)));
  const items = sources.length === 1 ? pages.flat() : newestFirst(pages.flat());
  return { items: items.slice(0, limit), more: items.length > limit };
}

/** Up to `count` entries of one source below `before`, newest first. */
async function readSource(
  source: Source,
  before: string | undefined,
  count: number,
  attributes?: readonly string[],
): Promise<Entry[]> {
  if (source.kind === 'granted') {
    return source.items
      .map((item) => ({ sortKey: sortKeyOfRecord(item), item }))
      .filter((e) => before === undefined || e.sortKey < before)
      .slice(0, count);
  }
  const { index, channelIds } = source;
  const condition = keyCondition(index, before);
  const narrowed = channelIds && channelFilter(channelIds);
  const projection = attributes && [...attributes, index.sortKey];
  const entries: Entry[] = [];
  // A narrowed source filters after reading (DynamoDB's Limit counts what is read): it reads on until
  // the page is full or the partition ends. A whole partition is one Query.
  for await (const page of queryPages<ConversationRecord>({
    IndexName: index.indexName,
    KeyConditionExpression: condition.KeyConditionExpression,
    ...(narrowed && { FilterExpression: narrowed.expression }),
    ...(projection && { ProjectionExpression: projection.map((_, i) => `#a${i}`).join(', ') }),
    ExpressionAttributeNames: {
      ...condition.ExpressionAttributeNames,
      ...(narrowed?.names ?? {}),
      ...(projection ? Object.fromEntries(projection.map((name, i) => [`#a${i}`, name])) : {}),
    },
    ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ...(narrowed?.values ?? {}) },
    ScanIndexForward: false,
    Limit: narrowed ? Math.max(count, NARROWED_READ) : count,
  })) {
    for (const item of page) entries.push({ sortKey: sortKeyOf(index, item), item });
    if (entries.length >= count) break;
  }
  return entries.slice(0, count);
}

/** Entries a narrowed source reads a Query (a colleague's partition seen through an agent's channels). */
const NARROWED_READ = 100;

/**
 * `channelId IN (…)`, in groups of DynamoDB's 100 operands, of conversations with their channel entry:
 * those the channel counters count (records.ts hasChannelEntry), so list and total agree.
 */
function channelFilter(channelIds: readonly string[]) {
  const groups: string[] = [];
  const values: Record<string, string> = {};
  for (let i = 0; i < channelIds.length; i += 100) {
    const names = channelIds.slice(i, i + 100).map((id, j) => {
      values[`:ch${i + j}`] = id;
      return `:ch${i + j}`;
    });
    groups.push(`#channelId IN (${names.join(', ')})`);
  }
  return {
    expression: `(${groups.join(' OR ')}) AND attribute_exists(#channelEntry)`,
    names: { '#channelId': 'channelId', '#channelEntry': GSI4.partitionKey },
    values,
  };
}

/**
 * Entries of several sources, newest first, each conversation once: it shows in two sources when both
 * list it (a channel the agent sees and their own assignee partition), or while a status change is
 * still reaching the index (both of an assignee's partitions).
 */
function newestFirst(entries: Entry[]): Entry[] {
  const sorted = [...entries].sort((a, b) => (a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0));
  const seen = new Set<string>();
  return sorted.filter((e) => {
    const id = e.item.id ?? e.sortKey;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Index entries one skipping Query reads. */
const SKIP_PAGE_SIZE = 1_000;

/**
 * Reads the first `count` entries of the sources merged newest first (their sort keys only) and
 * answers the last one's sort key: the page starts below it. undefined for a count of 0 (the top);
 * null when fewer exist. Holds one Query's page per source at a time, whatever the count.
 */
async function sortKeyAfterSkipping(sources: Sources, count: number): Promise<string | undefined | null> {
  if (count === 0) return undefined;
  const streams = sources.map((source) => sortKeysOf(source, count));
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
    // The same conversation in two sources (newestFirst) counts once.
    if (head.value !== last) remaining--;
    last = head.value;
    heads[newest] = await (streams[newest] as AsyncGenerator<string>).next();
  }
  return last;
}

/** The source's sort keys newest first, at most `max`, one Query of up to SKIP_PAGE_SIZE at a time. */
async function* sortKeysOf(source: Source, max: number): AsyncGenerator<string> {
  if (source.kind === 'granted') {
    yield* source.items.slice(0, max).map(sortKeyOfRecord);
    return;
  }
  const { index, channelIds } = source;
  const condition = keyCondition(index, undefined);
  const narrowed = channelIds && channelFilter(channelIds);
  let read = 0;
  for await (const page of queryPages<Record<string, string>>({
    IndexName: index.indexName,
    KeyConditionExpression: condition.KeyConditionExpression,
    ...(narrowed && { FilterExpression: narrowed.expression }),
    ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#sk': index.sortKey, ...(narrowed?.names ?? {}) },
    ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ...(narrowed?.values ?? {}) },
    ProjectionExpression: '#sk',
    ScanIndexForward: false,
    // DynamoDB refuses a Limit past 32 bits (any offset a caller sends must answer, not fail).
    Limit: narrowed ? SKIP_PAGE_SIZE : Math.min(max, SKIP_PAGE_SIZE),
  })) {
    for (const item of page) {
      if (read >= max) return;
      read++;
      yield sortKeyOf(index, item);
    }
    if (read >= max) return;
  }
}

function keyCondition(index: ConversationIndex, before: string | undefined) {
  return {
    KeyConditionExpression: before === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :before',
    ExpressionAttributeNames: { '#pk': index.partitionKey, ...(before === undefined ? {} : { '#sk': index.sortKey }) },
    ExpressionAttributeValues: before === undefined ? { ':pk': index.partition } : { ':pk': index.partition, ':before': before },
  };
}

/** An entry's sort key (`lastMessageAt#id`) in its index. */
const sortKeyOf = (index: ConversationIndex, item: object) => (item as Record<string, string>)[index.sortKey] as string;

/**
 * The filters' total from the counters every change of a conversation keeps (never a count query).
 * Owners and admins, and an agent's own conversations (`assignee=me`): the company's or the assignee's
 * counters. An agent's other views, from one query of the counters of the channels they see:
 * - all: those channels' counters (channelCounter), plus their own conversations elsewhere (their
 *   assignee counter less their own on those channels: assigneeChannelCounter), plus the granted ones
 *   of other channels not assigned to them (their grants are read for the list anyway);
 * - a colleague's or the unassigned: that assignee's counters on those channels, plus the granted ones
 *   of other channels in that partition.
 * Conversations stored before the channel index are in neither list nor total until their next change
 * (records.ts hasChannelEntry), except the agent's own, which both list and count through GSI3.
 */
async function conversationTotal(viewer: ListViewer, filters: ListFilters): Promise<number> {
  const { companyId, userId } = viewer;
  const { status, assigneeId } = filters;
  const statuses = statusesOf(status);
  if (seesWholeCompany(viewer.role) || assigneeId === userId) {
    const { open, closed } =
      assigneeId === undefined
        ? await readCompanyCounts(companyId).then((c) => ({ open: c.openConversations, closed: c.closedConversations }))
        : await readAssigneeCounts(companyId, assigneeId);
    return status === 'OPEN' ? open : status === 'CLOSED' ? closed : open + closed;
  }
  const visible = visibleChannelIds(viewer) as readonly string[];
  const names = (counter: (channelId: string, s: 'OPEN' | 'CLOSED') => string) =>
    visible.flatMap((channelId) => statuses.map((s) => counter(channelId, s)));
  const sum = (counts: ReadonlyMap<string, number>, of: readonly string[]) => of.reduce((t, n) => t + (counts.get(n) ?? 0), 0);
  const elsewhere = (await viewer.granted()).filter(
    (c) => statuses.includes(c.status as 'OPEN' | 'CLOSED') && !visible.includes(c.channelId),
  );
  if (assigneeId !== undefined) {
    const theirs = names((channelId, s) => assigneeChannelCounter(assigneeId, channelId, s));
    const counts = await readNamedCounts(companyId, theirs);
    return sum(counts, theirs) + elsewhere.filter((c) => (c.assignee?.id ?? null) === assigneeId).length;
  }
  const channels = names(channelCounter);
  const mineThere = names((channelId, s) => assigneeChannelCounter(userId, channelId, s));
  const mine = statuses.map((s) => assigneeCounter(userId, s));
  const counts = await readNamedCounts(companyId, [...channels, ...mineThere, ...mine]);
  return (
    sum(counts, channels) + sum(counts, mine) - sum(counts, mineThere) + elsewhere.filter((c) => c.assignee?.id !== userId).length
  );
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
