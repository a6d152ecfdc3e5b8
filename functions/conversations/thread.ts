import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type ConversationDetail, THREAD_PAGE_SIZE } from '../../shared/contract/conversations';
import { type PictureBlock, pictureBlockByPrefix } from '../../shared/picture-block';
import { badRequest, notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { prefixQuery } from '../lib/query';
import { keys } from '../lib/table';
import { enabledCapabilities } from '../settings/records';
import { toConversationView } from './conversation-views';
import { type ConversationRecord, type MessageRecord, toMessage } from './records';
import { type SendingRoute, sendingRoute } from './sending-route';
import { assignableMembers, getVisibleConversation, type Reader } from './visible-conversation';

/** A conversation and its messages as a thread reads them. */

export const conversationNotFound = () => notFound('Conversation not found');

/**
 * A conversation of the company, or undefined: another company's id is not found, like one that never
 * existed. Ids are made by the product (UUIDs); anything else cannot name a conversation, and a key
 * over DynamoDB's size limit would fail the request rather than answer 404.
 */
export async function findConversationRecord(companyId: string, conversationId: string): Promise<ConversationRecord | undefined> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(conversationId)) return undefined;
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.conversation(companyId, conversationId), ConsistentRead: true }),
  );
  return Item as ConversationRecord | undefined;
}

/** A message by id: its place (keys.messageById), then the message there. */
export async function findMessageRecord(companyId: string, conversationId: string, messageId: string) {
  const TableName = tableName();
  const { Item: place } = await db.send(
    new GetCommand({ TableName, Key: keys.messageById(companyId, conversationId, messageId), ConsistentRead: true }),
  );
  if (!place) return undefined;
  const { Item } = await db.send(
    new GetCommand({
      TableName,
      Key: keys.message(companyId, conversationId, place.createdAt as string, messageId),
      ConsistentRead: true,
    }),
  );
  return Item as MessageRecord | undefined;
}

export async function getConversationRecord(companyId: string, conversationId: string): Promise<ConversationRecord> {
  const record = await findConversationRecord(companyId, conversationId);
  if (!record) throw conversationNotFound();
  return record;
}

/**
 * The conversation as `reader` sees it (their unread count; 404 when they may not see it), whether texts can be sent from it now, the members who may be assigned or mentioned, and its newest THREAD_PAGE_SIZE messages, oldest first; with `before` (an
 * `olderCursor` of an earlier read), the page older than it. One Query whatever the thread's length.
 */
export async function readThread(reader: Reader, conversationId: string, before?: string): Promise<ConversationDetail> {
  const { companyId, userId: readerId } = reader;
  const startAfter = before === undefined ? undefined : decodeCursor(before);
  const record = await getVisibleConversation(reader, conversationId);
  const { PK } = keys.messagesOf(companyId, conversationId);
  const [conversation, members, { route, picturesBlockedBy }, page] = await Promise.all([
    toConversationView(record, readerId),
    assignableMembers(record),
    sendingRoute(record).then(async (route) => ({ route, picturesBlockedBy: await picturesBlock(route, record.contactPhone) })),
    db.send(
      new QueryCommand({
        TableName: tableName(),
        ...prefixQuery(keys.messagesOf(companyId, conversationId), { descending: true }),
        ExclusiveStartKey: startAfter ? { PK, SK: startAfter } : undefined,
        // One more than a page: whether older messages exist, without a second read.
        Limit: THREAD_PAGE_SIZE + 1,
      }),
    ),
  ]);
  const newestFirst = (page.Items ?? []) as (MessageRecord & { SK: string })[];
  const messages = newestFirst.slice(0, THREAD_PAGE_SIZE);
  const oldest = messages.at(-1);
  return {
    ...conversation,
    members,
    sendingBlockedBy: route.block,
    picturesBlockedBy,
    messages: messages.reverse().map(toMessage),
    olderCursor: newestFirst.length > THREAD_PAGE_SIZE && oldest ? encodeCursor(oldest.SK) : null,
  };
}

const MESSAGE_SORT_KEY = /^MSG#\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[\w-]{1,64}$/;

function encodeCursor(sortKey: string): string {
  return Buffer.from(sortKey, 'utf8').toString('base64url');
}

/** A cursor is the sort key of the oldest message shown; anything else is refused, never passed to the table. */
function decodeCursor(cursor: string): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!MESSAGE_SORT_KEY.test(sortKey))
    throw badRequest('before is not a cursor of this thread', { fields: { before: 'invalid cursor' } });
  return sortKey;
}

/**
 * Why this thread's texts cannot carry pictures (docs/product.md: Pictures out); null when they can,
 * and when no text can leave at all (`sendingBlockedBy` says why). The phone-number metadata loads
 * only when the prefixes cannot tell, off a plain thread's cold start.
 */
async function picturesBlock(route: SendingRoute, to: string): Promise<PictureBlock | null> {
  if (route.block !== null) return null;
  const from = { identifier: route.channel.identifier, mms: enabledCapabilities(route.channel).mms };
  const byPrefix = pictureBlockByPrefix(from, to);
  if (byPrefix) return byPrefix;
  const { pictureBlock } = await import('../../shared/pictures');
  return pictureBlock(from, to);
}
