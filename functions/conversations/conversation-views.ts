import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Conversation } from '../../shared/contract/conversations';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type ContactRecord, type ConversationRecord, toConversation } from './records';
import { unreadCountsFor } from './unread';

/**
 * The API views of conversations with their current contacts, read in one BatchGet per 100 distinct
 * contacts whatever the page size. A deleted contact is simply absent: the view shows the number.
 * With `readerId`, each carries that member's unread count (unread.ts), read alongside the contacts.
 */
export async function toConversationViews(
  companyId: string,
  records: readonly ConversationRecord[],
  readerId?: string,
): Promise<Conversation[]> {
  const [contacts, unread] = await Promise.all([
    contactsById(companyId, [...new Set(records.map((r) => r.contactId))]),
    readerId === undefined ? new Map<string, number>() : unreadCountsFor(companyId, readerId, records),
  ]);
  return records.map((record) => toConversation(record, contacts.get(record.contactId), unread.get(record.id) ?? 0));
}

export async function toConversationView(record: ConversationRecord, readerId?: string): Promise<Conversation> {
  const [{ Item }, unread] = await Promise.all([
    db.send(new GetCommand({ TableName: tableName(), Key: keys.contact(record.companyId, record.contactId) })),
    readerId === undefined ? new Map<string, number>() : unreadCountsFor(record.companyId, readerId, [record]),
  ]);
  return toConversation(record, Item as ContactRecord | undefined, unread.get(record.id) ?? 0);
}

async function contactsById(companyId: string, contactIds: readonly string[]): Promise<Map<string, ContactRecord>> {
  const contacts = await batchGetAll<ContactRecord>(contactIds.map((id) => keys.contact(companyId, id)));
  return new Map(contacts.map((contact) => [contact.id, contact]));
}
