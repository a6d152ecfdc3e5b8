import { mediaKind } from '../../shared/media-kinds';
import { STATUS_RANK } from '../../shared/message-status';
import { conflict } from '../lib/app-error';
import { untilAnswered } from '../lib/backoff';
import { tableName } from '../lib/config';
import { keys } from '../lib/table';
import type { TransactItem, TransactResult } from '../lib/transact';
import { assigneeCountChanges } from './company-counters';
import {
  assigneeEntryUnchanged,
  type ConversationRecord,
  conversationIndexEntries,
  hasAssigneeEntry,
  type MessageRecord,
} from './records';

/**
 * The writes a new message makes, as items of one transaction: the message, its conversation's
 * summary and index entries, and the company's counters (company-counters.ts). Inbound and outbound messages share them.
 */

/** The delivery status order, shared with the web cache (shared/message-status.ts). */
export { STATUS_RANK };

export function messagePutItem(message: MessageRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.message(message.companyId, message.conversationId, message.createdAt, message.id),
        entity: 'MESSAGE',
        ...message,
        statusRank: STATUS_RANK[message.status],
      },
    },
  };
}

/** The message's place by its id (keys.messageById), gone with it when the company's retention deletes it. */
export function messageByIdPutItem(message: MessageRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.messageById(message.companyId, message.conversationId, message.id),
        entity: 'MESSAGE_ID',
        createdAt: message.createdAt,
        ...(message.expiresAt ? { expiresAt: message.expiresAt } : {}),
      },
    },
  };
}

/**
 * The list's preview of a message: `mediaCount` and `mediaKinds` only for one with media (the list says
 * "Photo", "PDF"… when there is no text), `sentBy` only for one an agent sent (the list says whose).
 */
export function lastMessageOf(message: MessageRecord): NonNullable<ConversationRecord['lastMessage']> {
  const media = message.media ?? [];
  return {
    direction: message.direction,
    body: message.body,
    ...(media.length ? { mediaCount: media.length, mediaKinds: media.map((m) => mediaKind(m.contentType)) } : {}),
    ...(message.direction === 'OUTBOUND' && message.sentBy
      ? { sentBy: { id: message.sentBy.id, name: message.sentBy.name } }
      : {}),
  };
}

/**
 * The conversation once `message` is added: one more message, and the summary follows the message
 * only when it is the newest (a text stored after a newer one, by a slower writer, sorts before it).
 */
export function conversationWithMessage(
  conversation: ConversationRecord,
  message: MessageRecord,
  changes: Partial<Pick<ConversationRecord, 'status' | 'optedOut'>> = {},
): ConversationRecord {
  const newest = message.createdAt > conversation.lastMessageAt;
  const inbound = message.direction === 'INBOUND';
  return {
    ...conversation,
    ...changes,
    ...(newest ? { lastMessage: lastMessageOf(message), lastMessageAt: message.createdAt } : {}),
    messageCount: conversation.messageCount + 1,
    // Unread counts compare these with each member's marker (unread.ts): nothing is written per member.
    ...(inbound
      ? {
          inboundCount: (conversation.inboundCount ?? 0) + 1,
          lastInboundAt: newest || !conversation.lastInboundAt ? message.createdAt : conversation.lastInboundAt,
        }
      : {}),
  };
}

/**
 * A time for a message of `conversation` that no other message of it has: now, unless that is the
 * newest message's own time (same millisecond), when it is one millisecond later. An equal time could
 * not tell which of the two is the conversation's last message.
 */
export function messageTime(conversation: Pick<ConversationRecord, 'lastMessageAt'> | undefined, now = new Date()): string {
  const at = now.toISOString();
  if (at !== conversation?.lastMessageAt) return at;
  return new Date(now.getTime() + 1).toISOString();
}

/** A conversation's first message: the conversation and its (channel, contact) link, both new. */
export function conversationCreateItems(conversation: ConversationRecord, staleConversationId?: string): TransactItem[] {
  const TableName = tableName();
  return [
    {
      Put: {
        TableName,
        Item: {
          ...keys.conversationLink(conversation.companyId, conversation.channelId, conversation.contactId),
          entity: 'CONVERSATION_LINK',
          conversationId: conversation.id,
        },
        // One conversation per (channel, contact): a parallel first message makes this fail, and its retry appends.
        ConditionExpression: staleConversationId ? 'conversationId = :stale' : 'attribute_not_exists(PK)',
        ExpressionAttributeValues: staleConversationId ? { ':stale': staleConversationId } : undefined,
      },
    },
    {
      Put: {
        TableName,
        Item: {
          ...keys.conversation(conversation.companyId, conversation.id),
          entity: 'CONVERSATION',
          ...conversation,
          ...conversationIndexEntries(conversation),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
}

/**
 * `before` as read gets `message` (its time not that of `before`'s last message), becoming `after`
 * (conversationWithMessage). Parallel writers do not undo each other: the count is added to, and the
 * summary and index entries are set only by the newest message (the condition on lastMessageAt fails
 * when a newer one got in first; read again and the message is then added without them). The status
 * (and the assignee entry, when the index entries are rewritten) must be the ones read, so a reopening
 * is counted once; an opt-out is set only by the text that says it.
 */
export function conversationUpdateItem(
  before: ConversationRecord,
  message: MessageRecord,
  after: ConversationRecord,
): TransactItem {
  const newest = message.createdAt > before.lastMessageAt;
  const reopens = after.status !== before.status;
  const inbound = message.direction === 'INBOUND';
  const rewritesIndex = rewritesIndexEntries(before, message, after);
  const index = conversationIndexEntries(after);
  const sets = [
    ...(newest ? ['lastMessage = :lastMessage', 'lastMessageAt = :lastMessageAt'] : []),
    ...(rewritesIndex
      ? [
          '#status = :status',
          'GSI1PK = :gsi1pk',
          'GSI1SK = :gsi1sk',
          'GSI2PK = :gsi2pk',
          'GSI2SK = :gsi2sk',
          'GSI3PK = :gsi3pk',
          'GSI3SK = :gsi3sk',
          'GSI4PK = :gsi4pk',
          'GSI4SK = :gsi4sk',
        ]
      : []),
    ...(after.optedOut !== before.optedOut ? ['optedOut = :optedOut'] : []),
    // An inbound text's time is the latest inbound one when it is the newest message; an older one only fills a gap.
    ...(inbound ? [newest ? 'lastInboundAt = :at' : 'lastInboundAt = if_not_exists(lastInboundAt, :at)'] : []),
  ];
  // Index entries carry lastMessageAt: an older message that reopens writes them only over the time it read.
  const time = newest ? 'lastMessageAt < :at' : reopens ? 'lastMessageAt = :lastMessageAt' : 'lastMessageAt > :at';
  // The assignee entry is rewritten from the assignee read (and counted from it: conversationUpdateCounts).
  const assignee = rewritesIndex ? assigneeEntryUnchanged(before) : undefined;
  const values: Record<string, unknown> = { ':one': 1, ':statusBefore': before.status, ...assignee?.values };
  if (rewritesIndex) {
    Object.assign(values, {
      ':status': after.status,
      ':lastMessageAt': after.lastMessageAt,
      ':gsi1pk': index.GSI1PK,
      ':gsi1sk': index.GSI1SK,
      ':gsi2pk': index.GSI2PK,
      ':gsi2sk': index.GSI2SK,
      ':gsi3pk': index.GSI3PK,
      ':gsi3sk': index.GSI3SK,
      ':gsi4pk': index.GSI4PK,
      ':gsi4sk': index.GSI4SK,
    });
  }
  if (newest) values[':lastMessage'] = after.lastMessage;
  if (!reopens || newest || inbound) values[':at'] = message.createdAt;
  if (after.optedOut !== before.optedOut) values[':optedOut'] = after.optedOut;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.conversation(after.companyId, after.id),
      UpdateExpression: `${sets.length ? `SET ${sets.join(', ')} ` : ''}ADD messageCount :one${inbound ? ', inboundCount :one' : ''}`,
      ConditionExpression: `#status = :statusBefore AND ${time}${assignee ? ` AND ${assignee.expression}` : ''}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
    },
  };
}

/** Whether conversationUpdateItem rewrites the index entries: for the newest message, or one that reopens. */
function rewritesIndexEntries(before: ConversationRecord, message: MessageRecord, after: ConversationRecord): boolean {
  return message.createdAt > before.lastMessageAt || after.status !== before.status;
}

/**
 * The per-assignee counter changes that go with conversationUpdateItem (company-counters.ts): a
 * reopening moves the conversation from its assignee's closed count to the open one, and a
 * conversation stored before assignment is counted once its entry is first written.
 */
export function conversationUpdateCounts(
  before: ConversationRecord,
  message: MessageRecord,
  after: ConversationRecord,
): Record<string, number> {
  if (!rewritesIndexEntries(before, message, after)) return {};
  return assigneeCountChanges(hasAssigneeEntry(before) ? before : undefined, after);
}

/**
 * Runs a read-then-transact step until it commits. `attempt` answers a result, or undefined when its
 * transaction lost to a parallel writer (a condition on what it read no longer held; conflicts alone
 * are sent again by the table client): it then runs again on a fresh read, after the back-off, for as
 * long as the function's deadline allows (lib/backoff.ts). Only a conversation that keeps changing
 * for all that time answers 409.
 */
export async function untilCommitted<T>(attempt: () => Promise<T | undefined>): Promise<T> {
  const result = await untilAnswered(attempt);
  if (result === undefined) throw conflict('The conversation is changing right now. Please try again.');
  return result;
}

/**
 * A change of the conversation item other than a message (its status, its assignee): `fields` and the
 * index entries of `changed` set in one update, on condition that the status, activity time and
 * assignee entry are still the ones read. A parallel status change, text or assignment makes it fail,
 * so it is never lost: the writer reads again (untilCommitted, readAgainOrThrow).
 */
export function conversationChangeItem(
  read: ConversationRecord,
  changed: ConversationRecord,
  fields: Partial<Pick<ConversationRecord, 'status' | 'assignee'>>,
): TransactItem {
  const sets = Object.entries({ ...fields, ...conversationIndexEntries(changed) });
  const assignee = assigneeEntryUnchanged(read);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.conversation(read.companyId, read.id),
      UpdateExpression: `SET ${sets.map((_, i) => `#set${i} = :set${i}`).join(', ')}`,
      ConditionExpression: `#status = :readStatus AND lastMessageAt = :readLastMessageAt AND ${assignee.expression}`,
      ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(sets.map(([name], i) => [`#set${i}`, name])) },
      ExpressionAttributeValues: {
        ':readStatus': read.status,
        ':readLastMessageAt': read.lastMessageAt,
        ...assignee.values,
        ...Object.fromEntries(sets.map(([, value], i) => [`:set${i}`, value ?? null])),
      },
    },
  };
}

/**
 * A cancelled conversation change: `false` (read again) when it lost to a parallel writer, that is when
 * a condition on what it read failed or a transaction held its items; any other cancellation is thrown.
 */
export function readAgainOrThrow(result: Pick<Extract<TransactResult, { written: false }>, 'reasons' | 'error'>): false {
  const lost = result.reasons.every((r) => ['None', 'ConditionalCheckFailed', 'TransactionConflict'].includes(r.Code ?? 'None'));
  if (lost) return false;
  throw result.error;
}
