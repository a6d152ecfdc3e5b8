import { BatchGetCommand, type BatchGetCommandOutput, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Conversation } from '../../shared/contract/conversations';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type ContactRecord, type ConversationRecord, toConversation } from './records';

/** BatchGet takes at most 100 keys; a page is at most MAX_CONVERSATION_PAGE_SIZE (100). */
const BATCH_GET_MAX_KEYS = 100;

/**
 * The API views of conversations with their current contacts, read in one BatchGet per 100 distinct
 * contacts whatever the page size. A deleted contact is simply absent: the view shows the number.
 */
export async function toConversationViews(companyId: string, records: readonly ConversationRecord[]): Promise<Conversation[]> {
  const contacts = await contactsById(companyId, [...new Set(records.map((r) => r.contactId))]);
  return records.map((record) => toConversation(record, contacts.get(record.contactId)));
}

export async function toConversationView(record: ConversationRecord): Promise<Conversation> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.contact(record.companyId, record.contactId) }),
  );
  return toConversation(record, Item as ContactRecord | undefined);
}

async function contactsById(companyId: string, contactIds: readonly string[]): Promise<Map<string, ContactRecord>> {
  const found = new Map<string, ContactRecord>();
  const TableName = tableName();
  for (let i = 0; i < contactIds.length; i += BATCH_GET_MAX_KEYS) {
    let pending: Record<string, unknown>[] | undefined = contactIds
      .slice(i, i + BATCH_GET_MAX_KEYS)
      .map((id) => keys.contact(companyId, id));
    // DynamoDB may leave keys unprocessed under load: asked for again, backing off as AWS advises.
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
      const res: BatchGetCommandOutput = await db.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: pending } } }));
      for (const item of (res.Responses?.[TableName] ?? []) as ContactRecord[]) found.set(item.id, item);
      pending = res.UnprocessedKeys?.[TableName]?.Keys;
    }
  }
  return found;
}
