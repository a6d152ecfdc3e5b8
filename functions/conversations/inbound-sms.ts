import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { parsePhoneNumber } from '../../shared/phone-numbers';
import { smsSegments } from '../../shared/sms-segments';
import { newId } from '../auth/opaque-tokens';
import { contactActivityItem, createContactItems, findContactByPhone, newContact } from '../contacts/contacts';
import { badRequest } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { publish } from '../realtime/publish';
import { type ChannelRecord, enabledCapabilities, type ProviderRecord } from '../settings/records';
import {
  companyCountersItem,
  conversationCreateItems,
  conversationUpdateItem,
  conversationWithMessage,
  failedCondition,
  messagePutItem,
  type TransactItem,
  untilCommitted,
} from './message-writes';
import { type ContactRecord, type ConversationRecord, type MessageRecord, toConversation, toMessage } from './records';

/** A text Twilio delivered to one of the company's numbers (its webhook's parameters). */
export interface InboundSms {
  messageSid: string;
  from: string;
  to: string;
  body: string;
  segments?: number;
}

/**
 * Twilio's Advanced Opt-Out keywords: the whole text, any case. Twilio itself then refuses sends
 * from that number to the phone (21610) until it texts an opt-in keyword.
 * https://help.twilio.com/articles/223134027
 */
const OPT_OUT_KEYWORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN_KEYWORDS = new Set(['START', 'UNSTOP']);

/** Whether the text opts the phone out (true), back in (false), or says nothing about it. */
export function optOutOf(body: string): boolean | undefined {
  const word = body.trim().toUpperCase();
  if (OPT_OUT_KEYWORDS.has(word)) return true;
  if (OPT_IN_KEYWORDS.has(word)) return false;
  return undefined;
}

/**
 * Stores a text once, whatever Twilio's retries: the MessageSid item is written in the transaction of
 * the message, so a replay or a parallel duplicate stores nothing. The contact is found or created by
 * number; its conversation on this channel is appended to (OPEN), reopened (CLOSED) or created. The
 * message, the conversation, the contact's counters and the company's change together. A number
 * that is not an active SMS channel of this provider is ignored (Twilio must not retry it).
 */
export async function receiveSms(provider: ProviderRecord, sms: InboundSms): Promise<void> {
  if (await isStored(sms.messageSid)) return;
  const channel = await smsChannel(provider, sms.to);
  if (!channel) return;
  const phone = parsePhoneNumber(sms.from)?.e164;
  if (!phone) throw badRequest('From is not a phone number', { fields: { From: 'not a phone number' } });

  const stored = await untilCommitted(() => tryStore(channel, phone, sms));
  if (stored === 'duplicate') return;
  const { message, conversation, contact, reopened } = stored;
  const view = toConversation(conversation, contact);
  if (reopened)
    await publish(channel.companyId, { type: 'conversation_reopened', data: { conversationId: view.id, conversation: view } });
  await publish(channel.companyId, {
    type: 'new_message',
    data: { conversationId: view.id, message: toMessage(message), conversation: view },
  });
}

async function isStored(messageSid: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.messageSid(messageSid), ConsistentRead: true }),
  );
  return Boolean(Item);
}

/** The active SMS channel of this provider that owns the number, if any. */
async function smsChannel(provider: ProviderRecord, to: string): Promise<ChannelRecord | undefined> {
  const TableName = tableName();
  const e164 = parsePhoneNumber(to)?.e164 ?? to;
  const { Item: number } = await db.send(new GetCommand({ TableName, Key: keys.number(e164) }));
  if (!number || number.companyId !== provider.companyId) return undefined;
  const { Item } = await db.send(
    new GetCommand({ TableName, Key: keys.channel(provider.companyId, number.channelId as string), ConsistentRead: true }),
  );
  const channel = Item as ChannelRecord | undefined;
  const usable = channel?.status === 'ACTIVE' && channel.providerId === provider.id && enabledCapabilities(channel).sms;
  return usable ? channel : undefined;
}

interface Stored {
  message: MessageRecord;
  conversation: ConversationRecord;
  contact: ContactRecord;
  reopened: boolean;
}

/** One read-then-write of the text; undefined when a parallel writer got in between (read again). */
async function tryStore(channel: ChannelRecord, phone: string, sms: InboundSms): Promise<Stored | 'duplicate' | undefined> {
  const { companyId } = channel;
  const TableName = tableName();
  const at = new Date().toISOString();
  const found = await findContactByPhone(companyId, phone);
  const existing = found.contact ? await conversationOf(channel, found.contact.id) : {};
  const before = existing.conversation;

  const message: MessageRecord = {
    id: newId(),
    companyId,
    conversationId: before?.id ?? newId(),
    direction: 'INBOUND',
    body: sms.body,
    status: 'RECEIVED',
    createdAt: at,
    sentBy: null,
    providerStatus: 'received',
    providerMessageId: sms.messageSid,
    segments: sms.segments || smsSegments(sms.body).segments,
    errorCode: null,
    errorMessage: null,
  };
  const optedOut = optOutOf(sms.body);
  const contact: ContactRecord = found.contact
    ? { ...found.contact, lastContactAt: at, conversationCount: found.contact.conversationCount + (before ? 0 : 1) }
    : { ...newContact(companyId, phone, at), conversationCount: 1, lastContactAt: at };

  const items: TransactItem[] = [
    {
      Put: {
        TableName,
        Item: {
          ...keys.messageSid(sms.messageSid),
          entity: 'MESSAGE_SID',
          companyId,
          conversationId: message.conversationId,
          messageId: message.id,
          createdAt: message.createdAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    messagePutItem(message),
    ...(found.contact
      ? [contactActivityItem(contact, { at, conversations: before ? 0 : 1 })]
      : createContactItems(contact, found.staleContactId)),
  ];
  let conversation: ConversationRecord;
  const reopened = before?.status === 'CLOSED';
  if (before) {
    conversation = conversationWithMessage(before, message, { status: 'OPEN', optedOut: optedOut ?? before.optedOut });
    items.push(conversationUpdateItem(before, conversation));
    items.push(
      companyCountersItem(companyId, {
        smsReceived: 1,
        ...(reopened ? { openConversations: 1, closedConversations: -1 } : {}),
      }),
    );
  } else {
    conversation = {
      id: message.conversationId,
      companyId,
      status: 'OPEN',
      contactId: contact.id,
      contactPhone: phone,
      channelId: channel.id,
      channelIdentifier: channel.identifier,
      lastMessage: { direction: 'INBOUND', body: sms.body },
      lastMessageAt: at,
      messageCount: 1,
      optedOut: optedOut ?? false,
      createdAt: at,
    };
    items.push(...conversationCreateItems(conversation, existing.staleConversationId));
    items.push(companyCountersItem(companyId, { smsReceived: 1, openConversations: 1 }));
  }

  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    // The first item is the MessageSid's: another delivery of this text got there first.
    if (failedCondition(error, 0)) return 'duplicate';
    return undefined;
  }
  return { message, conversation, contact, reopened };
}

/** The contact's conversation on this channel; `staleConversationId` when its link outlived it. */
async function conversationOf(
  channel: ChannelRecord,
  contactId: string,
): Promise<{ conversation?: ConversationRecord; staleConversationId?: string }> {
  const TableName = tableName();
  const { Item: link } = await db.send(
    new GetCommand({ TableName, Key: keys.conversationLink(channel.companyId, channel.id, contactId), ConsistentRead: true }),
  );
  if (!link) return {};
  const conversationId = link.conversationId as string;
  const { Item } = await db.send(
    new GetCommand({ TableName, Key: keys.conversation(channel.companyId, conversationId), ConsistentRead: true }),
  );
  return Item ? { conversation: Item as ConversationRecord } : { staleConversationId: conversationId };
}
