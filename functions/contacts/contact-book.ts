import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Contact, INVALID_PHONE_NUMBER, type SharedContact } from '../../shared/contract/contacts';
import { checkPhoneNumber, toCountryCode } from '../../shared/phone-numbers';
import { defaultCountry } from '../company/settings';
import type { ContactRecord } from '../conversations/records';
import { badRequest, conflict, notFound } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { prefixQuery, queryPages } from '../lib/query';
import { keys } from '../lib/table';
import { transact } from '../lib/transact';
import { type LoadedViewer, visibleChannelIds } from '../team/visibility';
import {
  callsOnChannel,
  contactSearchItems,
  conversationsOnChannel,
  createContactItems,
  getContact,
  newContact,
} from './contacts';
import { foldText, LIST_PREFIX, searchPrefixes, searchTerms } from './search-terms';

/** The contact book: list and search (through the search entries), create, edit and delete. */

const contactNotFound = () => notFound('Contact not found');
/** Pages of search entries read for one prefix at most: a one-letter search in a huge book stays bounded. */
const MAX_PAGES = 4;

/**
 * The contact as the API shows it; with a viewer, its counts are what that viewer sees (docs/product.md:
 * Who sees what): an agent's, those of the channels they see.
 */
export function toContact(record: ContactRecord, viewer?: LoadedViewer): Contact {
  const channels = viewer ? visibleChannelIds(viewer) : 'ALL';
  const counted = (total: number | undefined, counter: (channelId: string) => string) =>
    channels === 'ALL'
      ? (total ?? 0)
      : channels.reduce((sum, id) => sum + Number((record as unknown as Record<string, unknown>)[counter(id)] ?? 0), 0);
  return {
    id: record.id,
    name: record.name,
    phoneNumber: record.phoneNumber,
    email: record.email,
    notes: record.notes,
    callCount: counted(record.callCount, callsOnChannel),
    conversationCount: counted(record.conversationCount, conversationsOnChannel),
    lastContactAt: record.lastContactAt,
    lastConversationId: record.lastConversationId ?? null,
    createdAt: record.createdAt,
  };
}

/** The book's order: named contacts A→Z, then unnamed ones by number. */
const bookOrder = (a: ContactRecord, b: ContactRecord) =>
  Number(!a.name) - Number(!b.name) ||
  foldText(a.name).localeCompare(foldText(b.name)) ||
  a.phoneNumber.localeCompare(b.phoneNumber);

/**
 * Up to `limit` contacts: the book in its order without a search, else those whose name or e-mail
 * has a word starting with it, or whose number contains its digits. One Query per search prefix and
 * one BatchGet, whatever the size of the book.
 */
export async function listContacts(
  companyId: string,
  options: { search?: string; limit: number },
  viewer?: LoadedViewer,
): Promise<Contact[]> {
  const prefixes = options.search ? searchPrefixes(options.search) : [];
  const searching = prefixes.length > 0;
  const found = await Promise.all((searching ? prefixes : [LIST_PREFIX]).map((p) => contactIdsFor(companyId, p, options.limit)));
  const ids = [...new Set(found.flat())].slice(0, options.limit);
  const records = await contactsById(companyId, ids);
  return (searching ? records.sort(bookOrder) : records).map((record) => toContact(record, viewer));
}

/** Contact ids of the entries starting with the prefix, in entry order, without repeats. */
async function contactIdsFor(companyId: string, prefix: string, limit: number): Promise<string[]> {
  const key = keys.contactSearchOf(companyId, prefix);
  const ids = new Set<string>();
  let pages = 0;
  // prefixQuery's range: a 10,000-contact book made DynamoDB Local's begins_with 10 times slower.
  const query = { ...prefixQuery(key, { projection: 'contactId', consistent: true }), Limit: limit };
  for await (const page of queryPages<{ contactId: string }>(query)) {
    for (const item of page) ids.add(item.contactId);
    if (++pages >= MAX_PAGES || ids.size >= limit) break;
  }
  return [...ids].slice(0, limit);
}

/** The contacts of these ids, in the same order; one BatchGet (at most 100). */
async function contactsById(companyId: string, ids: string[]): Promise<ContactRecord[]> {
  if (ids.length === 0) return [];
  const found = await batchGetAll<ContactRecord>(
    ids.map((id) => keys.contact(companyId, id)),
    { ConsistentRead: true },
  );
  const byId = new Map(found.map((contact) => [contact.id, contact]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface ContactInput {
  name: string;
  phoneNumber: string;
  email: string | null;
  notes: string | null;
}

/**
 * A new contact. The number is read in the company's country and stored as E.164; the uniqueness
 * item in the same transaction makes the second of two creates of one number a 409.
 */
export async function createContact(companyId: string, input: ContactInput, viewer?: LoadedViewer): Promise<Contact> {
  const check = checkPhoneNumber(input.phoneNumber, toCountryCode(await defaultCountry(companyId)));
  if (!check.ok) {
    const message = check.problem === 'EMPTY' ? 'Phone number is required' : INVALID_PHONE_NUMBER;
    throw badRequest(message, { fields: { phoneNumber: message } });
  }
  const contact: ContactRecord = {
    ...newContact(companyId, check.number.e164, new Date().toISOString()),
    name: input.name,
    email: input.email,
    notes: input.notes,
  };
  const result = await transact(createContactItems(contact));
  if (!result.written) {
    if (result.failed('contactPhone')) throw conflict('A contact with this phone number already exists.');
    throw result.error;
  }
  return toContact(contact, viewer);
}

export type ContactChanges = Partial<Pick<ContactInput, 'name' | 'email' | 'notes'>>;

/**
 * Changes name, e-mail or notes (never the number), and the search entries with them. Conditioned on
 * the name and e-mail read, so two edits at once cannot leave entries of a name the contact lost.
 */
export async function updateContact(
  companyId: string,
  contactId: string,
  changes: ContactChanges,
  viewer?: LoadedViewer,
): Promise<Contact> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await getContact(companyId, contactId);
    if (!before) throw contactNotFound();
    const after: ContactRecord = {
      ...before,
      name: changes.name ?? before.name,
      email: changes.email === undefined ? before.email : changes.email,
      notes: changes.notes === undefined ? before.notes : changes.notes,
    };
    const oldTerms = searchTerms(before);
    const newTerms = searchTerms(after);
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.contact(companyId, contactId),
                UpdateExpression: 'SET #name = :name, email = :email, notes = :notes',
                ConditionExpression: `attribute_exists(PK) AND #name = :oldName AND ${
                  before.email === null ? '(attribute_not_exists(email) OR attribute_type(email, :null))' : 'email = :oldEmail'
                }`,
                ExpressionAttributeNames: { '#name': 'name' },
                ExpressionAttributeValues: {
                  ':name': after.name,
                  ':email': after.email,
                  ':notes': after.notes,
                  ':oldName': before.name,
                  ...(before.email === null ? { ':null': 'NULL' } : { ':oldEmail': before.email }),
                },
              },
            },
            ...contactSearchItems(
              before,
              oldTerms.filter((t) => !newTerms.includes(t)),
              'Delete',
            ),
            ...contactSearchItems(
              after,
              newTerms.filter((t) => !oldTerms.includes(t)),
              'Put',
            ),
          ],
        }),
      );
      return toContact(after, viewer);
    } catch (error) {
      // Deleted or edited meanwhile: read it again.
      if (!(error instanceof TransactionCanceledException)) throw error;
    }
  }
  throw conflict('This contact kept changing; please try again.');
}

/**
 * Deletes the contact, its number's uniqueness item and its search entries. Conversations and calls
 * keep the number; a later text or call from it makes a new contact.
 */
export async function deleteContact(companyId: string, contactId: string): Promise<void> {
  const contact = await getContact(companyId, contactId);
  if (!contact) throw contactNotFound();
  const TableName = tableName();
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName, Key: keys.contact(companyId, contactId), ConditionExpression: 'attribute_exists(PK)' } },
          {
            Delete: {
              TableName,
              Key: keys.contactPhone(companyId, contact.phoneNumber),
              ConditionExpression: 'attribute_not_exists(PK) OR contactId = :id',
              ExpressionAttributeValues: { ':id': contactId },
            },
          },
          ...contactSearchItems(contact, searchTerms(contact), 'Delete'),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw contactNotFound();
    throw error;
  }
}

/** The contact as an event tells the whole company: no counts, which are each reader's. */
export function toSharedContact(contact: Contact): SharedContact {
  const { callCount: _calls, conversationCount: _conversations, ...shared } = contact;
  return shared;
}
