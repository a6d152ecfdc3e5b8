import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { TIMELINE_PAGE_SIZE, type TimelineItem } from '../../shared/contract/timeline';
import { type ContactRecord, type ConversationRecord, type MessageRecord, toMessage } from '../conversations/records';
import { badRequest, notFound } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPages, queryPrefix } from '../lib/query';
import { GSI3, keys } from '../lib/table';
import type { ChannelRecord } from '../settings/records';
import { type LoadedViewer, viewerSees, visibleChannelIds } from '../team/visibility';
import { type CallRecord, toCall } from '../voice/call-records';
import { viewerSeesCall } from '../voice/call-visibility';
import { getContact } from './contacts';

/**
 * The contact timeline (docs/product.md: Contact timeline): a bounded merge, never a scan. The
 * contact's conversations (one per channel: the company's channels, then their links to the contact
 * in one BatchGet) and the contact's calls (GSI3, keys.callByContact) are each read newest first, one
 * page and one item more, below the cursor (the cursor's own item is read again and dropped: two more); the merge keeps the newest page. The cost is one page per
 * conversation of the contact plus one, whatever the length of its history.
 */

/** An item's place in the timeline: its time, then its id, so equal times still page without gaps. */
type Position = string;

const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[\w-]{1,64}$/;

const encodeCursor = (position: Position) => Buffer.from(position, 'utf8').toString('base64url');

/** A cursor is the position of the oldest item shown; anything else is refused, never passed to the table. */
function decodeCursor(cursor: string): Position {
  const position = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!POSITION.test(position))
    throw badRequest('cursor is not a cursor of this timeline', { fields: { cursor: 'invalid cursor' } });
  return position;
}

/** Ids are made by the product; anything else names no contact (and could exceed a key's size). */
const CONTACT_ID = /^[A-Za-z0-9_-]{1,100}$/;

interface Placed {
  position: Position;
  item: TimelineItem;
}

/**
 * An agent's timeline holds only what they see (docs/product.md: Who sees what): the contact's
 * conversations they see, and their calls they see; owners' and admins' holds everything.
 */
export async function contactTimeline(
  viewer: LoadedViewer & { companyId: string },
  contactId: string,
  cursor?: string,
): Promise<{ items: TimelineItem[]; nextCursor: string | null }> {
  const { companyId } = viewer;
  const before = cursor === undefined ? undefined : decodeCursor(cursor);
  const contact = CONTACT_ID.test(contactId) ? await getContact(companyId, contactId) : undefined;
  if (!contact) throw notFound('Contact not found');
  const conversationIds = await conversationsOf(viewer, contactId);
  const pages = await Promise.all([
    callsOf(viewer, contact, before),
    ...conversationIds.map((conversationId) => messagesOf(companyId, conversationId, before)),
  ]);
  // Newest first; each source gave one more than a page, so more than a page in all means older items exist.
  const merged = pages.flat().sort((a, b) => (a.position < b.position ? 1 : a.position > b.position ? -1 : 0));
  const page = merged.slice(0, TIMELINE_PAGE_SIZE);
  const oldest = page.at(-1);
  return {
    items: page.map((placed) => placed.item),
    nextCursor: merged.length > TIMELINE_PAGE_SIZE && oldest ? encodeCursor(oldest.position) : null,
  };
}

/**
 * The contact's conversations the viewer sees: at most one per channel of the company
 * (keys.conversationLink); for an agent, the conversations too (one more BatchGet), whose channel,
 * assignee and mentions decide.
 */
async function conversationsOf(viewer: LoadedViewer & { companyId: string }, contactId: string): Promise<string[]> {
  const { companyId } = viewer;
  const channels = await queryPrefix<Pick<ChannelRecord, 'id'>>(keys.channelsOf(companyId), { projection: 'id' });
  const links = await batchGetAll<{ conversationId: string }>(
    channels.map((channel) => keys.conversationLink(companyId, channel.id, contactId)),
    { ProjectionExpression: 'conversationId' },
  );
  const ids = links.map((link) => link.conversationId);
  if (visibleChannelIds(viewer) === 'ALL') return ids;
  const conversations = await batchGetAll<
    Pick<ConversationRecord, 'id' | 'channelId' | 'assignee'> & { mentionedUserIds?: string[] }
  >(
    ids.map((id) => keys.conversation(companyId, id)),
    { ProjectionExpression: 'id, channelId, assignee, mentionedUserIds' },
  );
  return conversations
    .filter((c) =>
      viewerSees(viewer, { channelId: c.channelId, assigneeId: c.assignee?.id ?? null, mentionedUserIds: c.mentionedUserIds }),
    )
    .map((c) => c.id);
}

/** A page and one of a conversation's texts and notes older than `before`, newest first. */
async function messagesOf(companyId: string, conversationId: string, before: Position | undefined): Promise<Placed[]> {
  const { PK, SKPrefix } = keys.messagesOf(companyId, conversationId);
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      // The thread's sort keys are `MSG#<time>#<id>`: up to the cursor's own, or the whole thread ('~' sorts after every time).
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': PK, ':from': SKPrefix, ':to': `${SKPrefix}${before ?? '~'}` },
      ScanIndexForward: false,
      Limit: TIMELINE_PAGE_SIZE + 2,
    }),
  );
  return ((Items ?? []) as MessageRecord[])
    .map((record) => ({
      position: `${record.createdAt}#${record.id}`,
      item: {
        kind: record.type === 'NOTE' ? ('NOTE' as const) : ('TEXT' as const),
        id: record.id,
        createdAt: record.createdAt,
        message: toMessage(record),
      },
    }))
    .filter((placed) => before === undefined || placed.position < before);
}

/**
 * A page and one of the contact's calls older than `before` that the viewer sees, newest first (GSI3).
 * An agent's reads on past the calls they do not see until the page is full or the calls run out.
 */
async function callsOf(viewer: LoadedViewer, contact: ContactRecord, before: Position | undefined): Promise<Placed[]> {
  const { GSI3PK } = keys.callByContact(contact.companyId, contact.id, '', '');
  const wanted = TIMELINE_PAGE_SIZE + 2;
  const seen: CallRecord[] = [];
  for await (const page of queryPages<CallRecord>({
    IndexName: GSI3.indexName,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': GSI3.partitionKey, '#sk': GSI3.sortKey },
    // Sort keys begin with the ISO time: '0' sorts before every one, '~' after.
    ExpressionAttributeValues: { ':pk': GSI3PK, ':from': '0', ':to': before ?? '~' },
    ScanIndexForward: false,
    Limit: wanted,
  })) {
    seen.push(...page.filter((call) => viewerSeesCall(viewer, call)));
    if (seen.length >= wanted) break;
  }
  return seen
    .slice(0, wanted)
    .map((record) => ({
      position: `${record.createdAt}#${record.id}`,
      item: record.voicemail
        ? { kind: 'VOICEMAIL' as const, id: record.id, createdAt: record.createdAt, call: toCall(record, contact) }
        : { kind: 'CALL' as const, id: record.id, createdAt: record.createdAt, call: toCall(record, contact) },
    }))
    .filter((placed) => before === undefined || placed.position < before);
}
