import { randomBytes, randomUUID } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { searchTerms } from '../../functions/contacts/search-terms';
import {
  assigneeChannelCounter,
  assigneeCounter,
  COMPANY_COUNTERS,
  type ContactRecord,
  type ConversationRecord,
  channelCounter,
  conversationIndexEntries,
  type MessageRecord,
  type MessageSidRecord,
} from '../../functions/conversations/records';
import { forEachLimited } from '../../functions/lib/concurrency';
import { keys } from '../../functions/lib/table';
import type { ConversationStatus } from '../../shared/contract/conversations';

/**
 * Conversations stored as the product stores them (contact and its phone item, the conversation with
 * its index entries and link, its messages with their MessageSid items, the company's counters), for
 * tests and benches that need many at once, written to the table given (tests: testTable(); this
 * module stays free of vitest so benches can use it). Setup through the real table, not a stand-in
 * for the product: what the tests then read goes through the real handlers.
 */

export interface Table {
  client: DynamoDBDocumentClient;
  tableName: string;
}

export interface ConversationSeed {
  status?: ConversationStatus;
  /** When its (only) message arrived: the conversation's lastMessageAt. */
  at: Date;
  contactName?: string;
  body?: string;
  /** Its assignee; unassigned when absent. */
  assignee?: { id: string; name: string } | null;
}

/** A fictional but valid US number per index, unique within a company. */
export const seedPhone = (index: number) => `+13122${String(index).padStart(6, '0')}`;

const BATCH_WRITE_MAX_ITEMS = 25;

/**
 * Stores one conversation per seed, each with a new contact and one inbound message, with BatchWrite,
 * then moves the company's counters as the inbound path would have. Answers the conversations stored.
 */
export async function seedConversations(
  table: Table,
  companyId: string,
  channel: { id: string; identifier: string },
  seeds: readonly ConversationSeed[],
  firstPhone = 0,
): Promise<ConversationRecord[]> {
  const items: Record<string, unknown>[] = [];
  const conversations = seeds.map((seed, i) => {
    const at = seed.at.toISOString();
    const contact: ContactRecord = {
      id: randomUUID(),
      companyId,
      name: seed.contactName ?? '',
      phoneNumber: seedPhone(firstPhone + i),
      email: null,
      notes: null,
      callCount: 0,
      conversationCount: 1,
      lastContactAt: at,
      createdAt: at,
    };
    const body = seed.body ?? `Hello from ${contact.phoneNumber}`;
    const conversation: ConversationRecord = {
      id: randomUUID(),
      companyId,
      status: seed.status ?? 'OPEN',
      contactId: contact.id,
      contactPhone: contact.phoneNumber,
      channelId: channel.id,
      channelIdentifier: channel.identifier,
      lastMessage: { direction: 'INBOUND', body },
      lastMessageAt: at,
      messageCount: 1,
      optedOut: false,
      createdAt: at,
      inboundCount: 1,
      lastInboundAt: at,
      assignee: seed.assignee ?? null,
    };
    const message = inboundMessage(conversation, body, at);
    items.push(
      { ...keys.contact(companyId, contact.id), entity: 'CONTACT', ...contact },
      { ...keys.contactPhone(companyId, contact.phoneNumber), entity: 'CONTACT_PHONE', contactId: contact.id },
      ...contactSearchEntries(contact),
      {
        ...keys.conversation(companyId, conversation.id),
        ...conversationIndexEntries(conversation),
        entity: 'CONVERSATION',
        ...conversation,
      },
      {
        ...keys.conversationLink(companyId, channel.id, contact.id),
        entity: 'CONVERSATION_LINK',
        conversationId: conversation.id,
      },
      ...messageItems(message),
    );
    return conversation;
  });

  await putItems(table, items);

  const open = conversations.filter((c) => c.status === 'OPEN').length;
  // Each assignee's (and the unassigned) open and closed counts, as the product keeps them.
  const byAssignee = new Map<string, number>();
  for (const c of conversations) {
    // And the channel's, alone and with the assignee, as every conversation written now has its channel entry.
    const assigneeId = c.assignee?.id ?? null;
    for (const name of [
      assigneeCounter(assigneeId, c.status),
      channelCounter(c.channelId, c.status),
      assigneeChannelCounter(assigneeId, c.channelId, c.status),
    ]) {
      byAssignee.set(name, (byAssignee.get(name) ?? 0) + 1);
    }
  }
  const assigned = [...byAssignee];
  await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: keys.company(companyId),
      UpdateExpression: `ADD #open :open, #closed :closed, #received :received${assigned.map((_, i) => `, #a${i} :a${i}`).join('')}`,
      ExpressionAttributeNames: {
        '#open': COMPANY_COUNTERS.openConversations,
        '#closed': COMPANY_COUNTERS.closedConversations,
        '#received': COMPANY_COUNTERS.smsReceived,
        ...Object.fromEntries(assigned.map(([name], i) => [`#a${i}`, name])),
      },
      ExpressionAttributeValues: {
        ':open': open,
        ':closed': conversations.length - open,
        ':received': conversations.length,
        ...Object.fromEntries(assigned.map(([, n], i) => [`:a${i}`, n])),
      },
    }),
  );
  return conversations;
}

/**
 * An inbound message to an existing OPEN conversation, written as one transaction the way the inbound
 * webhook writes it: the conversation moves to the top of the lists. Answers the conversation after it.
 */
export async function seedInboundMessage(
  table: Table,
  conversation: ConversationRecord,
  body: string,
  at = new Date(),
): Promise<ConversationRecord> {
  const receivedAt = at.toISOString();
  const after: ConversationRecord = {
    ...conversation,
    lastMessage: { direction: 'INBOUND', body },
    lastMessageAt: receivedAt,
    messageCount: conversation.messageCount + 1,
    inboundCount: (conversation.inboundCount ?? 0) + 1,
    lastInboundAt: receivedAt,
  };
  const TableName = table.tableName;
  const entries = conversationIndexEntries(after);
  const indexNames = Object.keys(entries);
  await table.client.send(
    new TransactWriteCommand({
      TransactItems: [
        ...messageItems(inboundMessage(after, body, receivedAt)).map((Item) => ({
          Put: { TableName, Item, ConditionExpression: 'attribute_not_exists(PK)' },
        })),
        {
          Update: {
            TableName,
            Key: keys.conversation(conversation.companyId, conversation.id),
            UpdateExpression: `SET lastMessage = :last, lastMessageAt = :at, lastInboundAt = :at, ${indexNames
              .map((_, i) => `#index${i} = :index${i}`)
              .join(', ')} ADD messageCount :one, inboundCount :one`,
            ConditionExpression: 'lastMessageAt = :before',
            ExpressionAttributeNames: Object.fromEntries(indexNames.map((name, i) => [`#index${i}`, name])),
            ExpressionAttributeValues: {
              ':last': after.lastMessage,
              ':at': receivedAt,
              ':before': conversation.lastMessageAt,
              ':one': 1,
              ...Object.fromEntries(Object.values(entries).map((value, i) => [`:index${i}`, value])),
            },
          },
        },
        {
          Update: {
            TableName,
            Key: keys.contact(conversation.companyId, conversation.contactId),
            UpdateExpression: 'SET lastContactAt = :at',
            ExpressionAttributeValues: { ':at': receivedAt },
          },
        },
        {
          Update: {
            TableName,
            Key: keys.company(conversation.companyId),
            UpdateExpression: 'ADD #received :one',
            ExpressionAttributeNames: { '#received': COMPANY_COUNTERS.smsReceived },
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ],
    }),
  );
  return after;
}

function inboundMessage(conversation: ConversationRecord, body: string, at: string): MessageRecord {
  return {
    id: randomUUID(),
    companyId: conversation.companyId,
    conversationId: conversation.id,
    direction: 'INBOUND',
    body,
    status: 'RECEIVED',
    createdAt: at,
    sentBy: null,
    providerStatus: 'received',
    providerMessageId: `SM${randomBytes(16).toString('hex')}`,
    segments: 1,
    errorCode: null,
    errorMessage: null,
  };
}

function messageItems(message: MessageRecord): Record<string, unknown>[] {
  const sid: MessageSidRecord = {
    companyId: message.companyId,
    conversationId: message.conversationId,
    messageId: message.id,
    createdAt: message.createdAt,
  };
  return [
    { ...keys.message(message.companyId, message.conversationId, message.createdAt, message.id), entity: 'MESSAGE', ...message },
    { ...keys.messageSid(message.providerMessageId as string), entity: 'MESSAGE_SID', ...sid },
  ];
}

/** The contact book's search entries of a contact, as the product writes them with it. */
export const contactSearchEntries = (contact: ContactRecord) =>
  searchTerms(contact).map((term) => ({
    ...keys.contactSearch(contact.companyId, term, contact.id),
    entity: 'CONTACT_SEARCH',
    contactId: contact.id,
  }));

/** Stores items with BatchWrite, 25 a request, 8 requests at a time. */
export async function putItems(table: Table, items: Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITE_MAX_ITEMS) batches.push(items.slice(i, i + BATCH_WRITE_MAX_ITEMS));
  await forEachLimited(batches, 8, (batch) => batchWrite(table, batch));
}

async function batchWrite(table: Table, items: Record<string, unknown>[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
    const res = await table.client.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: pending } }));
    pending = (res.UnprocessedItems?.[table.tableName] ?? []) as typeof pending;
  }
}
