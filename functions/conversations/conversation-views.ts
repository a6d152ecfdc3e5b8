import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Conversation } from '../../shared/contract/conversations';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type ContactRecord, type ConversationRecord, toConversation } from './records';

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
  const contacts = await batchGetAll<ContactRecord>(contactIds.map((id) => keys.contact(companyId, id)));
  return new Map(contacts.map((contact) => [contact.id, contact]));
}
