import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { MessageStatus } from '../../shared/contract/conversations';
import { conflict } from '../lib/app-error';
import { tableName } from '../lib/config';
import { keys } from '../lib/table';
import type { TransactItem } from '../lib/transact';
import { COMPANY_COUNTERS, type ConversationRecord, conversationIndexEntries, type MessageRecord } from './records';

/**
 * The writes a new message makes, as items of one transaction: the message, its conversation's
 * summary and index entries, and the company's counters. Inbound and outbound messages share them.
 */

export type { TransactItem };

/**
 * Delivery statuses in the order they may be reached. UNDELIVERED and FAILED are terminal and rank
 * alike (the first to arrive stays); only DELIVERED beats them, since a handset that got the text
 * settles it. Stored on the message as `statusRank`, so a condition expression keeps it moving forward.
 */
export const STATUS_RANK: Record<MessageStatus, number> = {
  RECEIVED: 0,
  QUEUED: 1,
  SENDING: 2,
  SENT: 3,
  UNDELIVERED: 4,
  FAILED: 4,
  DELIVERED: 5,
};

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

/** The conversation once `message` is its newest: summary, count and index entries follow it. */
export function conversationWithMessage(
  conversation: ConversationRecord,
  message: MessageRecord,
  changes: Partial<Pick<ConversationRecord, 'status' | 'optedOut'>> = {},
): ConversationRecord {
  return {
    ...conversation,
    ...changes,
    lastMessage: { direction: message.direction, body: message.body },
    // Never back in time (clocks of two functions may differ by a little): the index stays ordered.
    lastMessageAt: message.createdAt > conversation.lastMessageAt ? message.createdAt : conversation.lastMessageAt,
    messageCount: conversation.messageCount + 1,
  };
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
 * `before` as read becomes `after`. Optimistic: the update holds only if nobody changed the status or
 * added a message since the read, so counters and the summary never mix two writers' views.
 */
export function conversationUpdateItem(before: ConversationRecord, after: ConversationRecord): TransactItem {
  const index = conversationIndexEntries(after);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.conversation(after.companyId, after.id),
      UpdateExpression:
        'SET #status = :status, lastMessage = :lastMessage, lastMessageAt = :lastMessageAt, messageCount = :count, ' +
        'optedOut = :optedOut, GSI1PK = :gsi1pk, GSI1SK = :gsi1sk, GSI2PK = :gsi2pk, GSI2SK = :gsi2sk',
      ConditionExpression: '#status = :statusBefore AND messageCount = :countBefore',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': after.status,
        ':lastMessage': after.lastMessage,
        ':lastMessageAt': after.lastMessageAt,
        ':count': after.messageCount,
        ':optedOut': after.optedOut,
        ':gsi1pk': index.GSI1PK,
        ':gsi1sk': index.GSI1SK,
        ':gsi2pk': index.GSI2PK,
        ':gsi2sk': index.GSI2SK,
        ':statusBefore': before.status,
        ':countBefore': before.messageCount,
      },
    },
  };
}

export type CompanyCounter = keyof typeof COMPANY_COUNTERS;

/** Adds to the company's counters (negative to take away), in the transaction of what they count. */
export function companyCountersItem(companyId: string, changes: Partial<Record<CompanyCounter, number>>): TransactItem {
  const entries = Object.entries(changes).filter(([, n]) => n) as [CompanyCounter, number][];
  return {
    Update: {
      TableName: tableName(),
      Key: keys.company(companyId),
      UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, COMPANY_COUNTERS[name]])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, n], i) => [`:c${i}`, n])),
    },
  };
}

/** Whether a transaction failed because the condition of its item at `index` did not hold. */
export function failedCondition(error: unknown, index: number): boolean {
  return error instanceof TransactionCanceledException && error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
}

const MAX_ATTEMPTS = 8;

/**
 * Runs a read-then-transact step until it commits. `attempt` answers a result, or undefined when its
 * transaction lost to a parallel writer (it then runs again on a fresh read, after a short random
 * pause); a conversation that keeps changing under it answers 409.
 */
export async function untilCommitted<T>(attempt: () => Promise<T | undefined>): Promise<T> {
  for (let i = 1; ; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (i === MAX_ATTEMPTS) throw conflict('The conversation is changing right now. Please try again.');
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * i));
  }
}
