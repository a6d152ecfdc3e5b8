import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../auth/opaque-tokens';
import type { ContactRecord } from '../conversations/records';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type NamedItem, named, type TransactItem } from '../lib/transact';
import { searchTerms } from './search-terms';

/**
 * Contacts as SMS, calls and the contact book share them: one contact per company and E.164 number,
 * held by a uniqueness item (keys.contactPhone) written in the same transaction as the contact.
 */

/** Already E.164: what Twilio sends for every phone. */
const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * A phone number in E.164, or undefined when it is not one. Twilio's parameters are E.164 already;
 * anything else is read by shared/phone-numbers, loaded only then, since libphonenumber's metadata is
 * most of a webhook's bundle and of its cold start.
 */
export async function toE164(input: string): Promise<string | undefined> {
  const text = input.trim();
  if (E164.test(text)) return text;
  const { e164Of } = await import('./phone-notation');
  return e164Of(text);
}

/** The id of the contact that has the number, read consistently (a contact a parallel request just made is seen). */
export async function contactIdForPhone(companyId: string, e164: string): Promise<string | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.contactPhone(companyId, e164), ConsistentRead: true }),
  );
  return Item?.contactId as string | undefined;
}

export async function getContact(companyId: string, contactId: string): Promise<ContactRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.contact(companyId, contactId), ConsistentRead: true }),
  );
  return Item as ContactRecord | undefined;
}

/** A contact first seen now (an unknown number texted or called): no name yet. */
export function newContact(companyId: string, e164: string, at: string): ContactRecord {
  return {
    id: newId(),
    companyId,
    name: '',
    phoneNumber: e164,
    email: null,
    notes: null,
    callCount: 0,
    conversationCount: 0,
    lastContactAt: null,
    lastConversationId: null,
    createdAt: at,
  };
}

/** Puts of the contact's search entries (keys.contactSearch), for the terms given or all of them. */
export function contactSearchItems(
  contact: Pick<ContactRecord, 'companyId' | 'id'>,
  terms: readonly string[],
  action: 'Put' | 'Delete',
): TransactItem[] {
  const TableName = tableName();
  return terms.map((term) => {
    const key = keys.contactSearch(contact.companyId, term, contact.id);
    return action === 'Put'
      ? { Put: { TableName, Item: { ...key, entity: 'CONTACT_SEARCH', contactId: contact.id } } }
      : { Delete: { TableName, Key: key } };
  });
}

/**
 * Writes of a new contact for a transaction. The uniqueness item's condition makes a parallel first
 * contact from the same number fail the transaction, so its caller re-reads and finds this one.
 * `staleContactId`: the number's uniqueness item outlived that contact; the new one takes it over.
 */
export function createContactItems(
  contact: ContactRecord,
  staleContactId?: string,
): (TransactItem | NamedItem<'contactPhone'>)[] {
  const TableName = tableName();
  return [
    // One contact per number: a parallel writer of the same number fails this item.
    named('contactPhone', {
      Put: {
        TableName,
        Item: {
          ...keys.contactPhone(contact.companyId, contact.phoneNumber),
          entity: 'CONTACT_PHONE',
          contactId: contact.id,
        },
        ConditionExpression: staleContactId ? 'contactId = :stale' : 'attribute_not_exists(PK)',
        ExpressionAttributeValues: staleContactId ? { ':stale': staleContactId } : undefined,
      },
    }),
    {
      Put: {
        TableName,
        Item: { ...keys.contact(contact.companyId, contact.id), entity: 'CONTACT', ...contact },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    // The contact book lists and searches these; a contact first seen in a text is found by number.
    ...contactSearchItems(contact, searchTerms(contact), 'Put'),
  ];
}

/**
 * The contact's counters of one channel, beside its totals: an agent's counts are those of the
 * channels they see (docs/product.md: Who sees what). Kept from when they were added; not backfilled.
 */
export const callsOnChannel = (channelId: string) => `callsOn#${channelId}`;
export const conversationsOnChannel = (channelId: string) => `conversationsOn#${channelId}`;

/** A new contact's counters of its first channel, to spread into its record. */
export const firstChannelCounts = (channelId: string, activity: { calls?: number; conversations?: number }) => ({
  ...(channelId && activity.calls ? { [callsOnChannel(channelId)]: activity.calls } : {}),
  ...(channelId && activity.conversations ? { [conversationsOnChannel(channelId)]: activity.conversations } : {}),
});

/**
 * The contact's activity counters in a transaction: the time of the last text or call, and how many
 * conversations or calls were added (in all and on the channel), and the conversation it happened in
 * (where the contact book's conversation count leads). Fails the transaction when the contact was
 * deleted meanwhile.
 */
export function contactActivityItem(
  contact: Pick<ContactRecord, 'companyId' | 'id'>,
  activity: { at: string; conversations?: number; calls?: number; conversationId?: string; channelId?: string },
): TransactItem {
  const perChannel = [
    ...(activity.channelId && activity.calls ? [['#callsOn', callsOnChannel(activity.channelId), ':calls'] as const] : []),
    ...(activity.channelId && activity.conversations
      ? [['#conversationsOn', conversationsOnChannel(activity.channelId), ':conversations'] as const]
      : []),
  ];
  return {
    Update: {
      TableName: tableName(),
      Key: keys.contact(contact.companyId, contact.id),
      UpdateExpression: `SET lastContactAt = :at${activity.conversationId ? ', lastConversationId = :conversation' : ''} ADD conversationCount :conversations, callCount :calls${perChannel.map(([name, , value]) => `, ${name} ${value}`).join('')}`,
      ConditionExpression: 'attribute_exists(PK)',
      ...(perChannel.length
        ? { ExpressionAttributeNames: Object.fromEntries(perChannel.map(([name, attribute]) => [name, attribute])) }
        : {}),
      ExpressionAttributeValues: {
        ':at': activity.at,
        ':conversations': activity.conversations ?? 0,
        ':calls': activity.calls ?? 0,
        ...(activity.conversationId ? { ':conversation': activity.conversationId } : {}),
      },
    },
  };
}
