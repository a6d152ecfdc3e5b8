import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_MESSAGE_MEDIA } from '../../shared/constants';
import { smsSegments } from '../../shared/sms-segments';
import { getActiveUser } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { retentionExpiry } from '../company/retention';
import {
  contactActivityItem,
  contactIdForPhone,
  createContactItems,
  firstChannelCounts,
  getContact,
  newContact,
  toE164,
} from '../contacts/contacts';
import { badRequest } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type NamedItem, named, type TransactItem, transact } from '../lib/transact';
import { type ChannelRecord, enabledCapabilities, type ProviderRecord } from '../settings/records';
import { conversationAudience, publishToViewers } from './audience';
import { assigneeCountChanges, companyCountersItem } from './company-counters';
import {
  conversationCreateItems,
  conversationUpdateCounts,
  conversationUpdateItem,
  conversationWithMessage,
  lastMessageOf,
  messageByIdPutItem,
  messagePutItem,
  messageTime,
  untilCommitted,
} from './message-writes';
import {
  type ContactRecord,
  type ConversationRecord,
  type MessageMediaRecord,
  type MessageRecord,
  openedConversation,
  toConversation,
  toMessage,
  toSharedConversation,
} from './records';

/** A text Twilio delivered to one of the company's numbers (its webhook's parameters). */
export interface InboundSms {
  messageSid: string;
  from: string;
  to: string;
  body: string;
  segments?: number;
  /** An MMS's pictures and other files, in Twilio's order; a message may be media only. */
  media?: MessageMediaRecord[];
}

/** The media an inbound MMS announced, in Twilio's order: `MediaUrl{n}` with `MediaContentType{n}`, n below NumMedia. */
export function mediaOfWebhook(params: Partial<Record<string, string | number>>): MessageMediaRecord[] {
  const count = Math.min(Number(params.NumMedia ?? 0) || 0, MAX_MESSAGE_MEDIA);
  const media: MessageMediaRecord[] = [];
  for (let i = 0; i < count; i++) {
    const url = params[`MediaUrl${i}`];
    if (typeof url !== 'string' || !url) continue;
    const contentType = params[`MediaContentType${i}`];
    media.push({
      contentType: typeof contentType === 'string' && contentType ? contentType : 'application/octet-stream',
      // The Media resource's SID ends its URL (…/Media/ME…).
      sid: /\/(ME[0-9a-f]{32})$/i.exec(url)?.[1] ?? '',
      url,
    });
  }
  return media;
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
export async function receiveSms(provider: Pick<ProviderRecord, 'id' | 'companyId'>, sms: InboundSms): Promise<void> {
  const { companyId } = provider;
  const [phone, to] = await Promise.all([toE164(sms.from), toE164(sms.to)]);
  // Reads go side by side as far as the keys allow: the request's keys first, then what they name.
  const [stored, channelId, contactId] = await Promise.all([
    isStored(sms.messageSid),
    to ? channelIdOfNumber(companyId, to) : undefined,
    phone ? contactIdForPhone(companyId, phone) : undefined,
  ]);
  if (stored || !channelId) return;
  const [channel, sender] = await Promise.all([
    smsChannel(provider, channelId),
    phone ? readSender(companyId, channelId, phone, contactId ?? null) : undefined,
  ]);
  if (!channel) return;
  if (!phone || !sender) throw badRequest('From is not a phone number', { fields: { From: 'not a phone number' } });

  let firstRead: Sender | undefined = sender;
  // The text's time is kept across attempts: one that lost to a newer text is then added before it.
  let at: string | undefined;
  const result = await untilCommitted(async () => {
    const read = firstRead ?? (await readSender(companyId, channel.id, phone));
    firstRead = undefined;
    at = at === undefined || at === read.conversation?.lastMessageAt ? messageTime(read.conversation) : at;
    return tryStore(channel, phone, sms, read, at);
  });
  if (result === 'duplicate') return;
  const { message, conversation, contact, reopened } = result;
  const view = toSharedConversation(toConversation(conversation, contact));
  // Only those who see it hear it (docs/product.md: Who sees what); the channel was read above.
  const audience = conversationAudience(conversation, { routing: channel });
  if (reopened)
    await publishToViewers(
      conversation,
      { type: 'conversation_reopened', data: { conversationId: view.id, conversation: view } },
      audience,
    );
  await publishToViewers(
    conversation,
    { type: 'new_message', data: { conversationId: view.id, message: toMessage(message), conversation: view } },
    audience,
  );
}

/**
 * Who a new conversation starts assigned to: the member a USER-routed number rings; nobody
 * for an INBOX-routed (the inbox's members share it) or UNASSIGNED number, nor when that member is no
 * longer active. Not checked again in the transaction: a member removed at the very moment of a first
 * text leaves a conversation assigned to them, which anyone can reassign, as after any removal.
 */
async function assigneeByRouting(channel: ChannelRecord): Promise<ConversationRecord['assignee']> {
  if (channel.routingType !== 'USER' || !channel.routingTargetId) return null;
  const user = await getActiveUser(channel.companyId, channel.routingTargetId);
  return user ? { id: user.id, name: user.name } : null;
}

async function isStored(messageSid: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.messageSid(messageSid), ConsistentRead: true }),
  );
  return Boolean(Item);
}

/** The channel of the company that has the number, if any. */
async function channelIdOfNumber(companyId: string, e164: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.number(e164) }));
  return Item?.companyId === companyId ? (Item.channelId as string) : undefined;
}

/** The channel, if it is active, of this provider, and used for SMS. */
async function smsChannel(
  provider: Pick<ProviderRecord, 'id' | 'companyId'>,
  channelId: string,
): Promise<ChannelRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.channel(provider.companyId, channelId), ConsistentRead: true }),
  );
  const channel = Item as ChannelRecord | undefined;
  const usable = channel?.status === 'ACTIVE' && channel.providerId === provider.id && enabledCapabilities(channel).sms;
  return usable ? channel : undefined;
}

/** The sender's contact and its conversation on the channel; `stale…` when an index item outlived what it named. */
export interface Sender {
  contact?: ContactRecord;
  staleContactId?: string;
  conversation?: ConversationRecord;
  staleConversationId?: string;
}

/**
 * Reads the sender's contact and conversation: number → (contact, link) → conversation, consistently,
 * so a retry sees what a parallel text just wrote. `contactId` when already read (null: none). A
 * conversation an agent starts reads the same (start-conversation.ts).
 */
export async function readSender(
  companyId: string,
  channelId: string,
  phone: string,
  contactId?: string | null,
): Promise<Sender> {
  const id = contactId === undefined ? await contactIdForPhone(companyId, phone) : contactId;
  if (!id) return {};
  const TableName = tableName();
  const [contact, link] = await Promise.all([
    getContact(companyId, id),
    db.send(new GetCommand({ TableName, Key: keys.conversationLink(companyId, channelId, id), ConsistentRead: true })),
  ]);
  if (!contact) return { staleContactId: id };
  const conversationId = link.Item?.conversationId as string | undefined;
  if (!conversationId) return { contact };
  const { Item } = await db.send(
    new GetCommand({ TableName, Key: keys.conversation(companyId, conversationId), ConsistentRead: true }),
  );
  return Item ? { contact, conversation: Item as ConversationRecord } : { contact, staleConversationId: conversationId };
}

interface Stored {
  message: MessageRecord;
  conversation: ConversationRecord;
  contact: ContactRecord;
  reopened: boolean;
}

/** One read-then-write of the text; undefined when a parallel writer got in between (read again). */
async function tryStore(
  channel: ChannelRecord,
  phone: string,
  sms: InboundSms,
  found: Sender,
  at: string,
): Promise<Stored | 'duplicate' | undefined> {
  const { companyId } = channel;
  const TableName = tableName();
  const before = found.conversation;

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
    ...(sms.media?.length ? { media: sms.media } : {}),
    ...(await retentionExpiry(companyId, at)),
  };
  const optedOut = optOutOf(sms.body);
  const contact: ContactRecord = found.contact
    ? { ...found.contact, lastContactAt: at, conversationCount: found.contact.conversationCount + (before ? 0 : 1) }
    : {
        ...newContact(companyId, phone, at),
        conversationCount: 1,
        lastContactAt: at,
        lastConversationId: message.conversationId,
        ...firstChannelCounts(channel.id, { conversations: 1 }),
      };

  const items: (TransactItem | NamedItem<'messageSid' | 'contactPhone'>)[] = [
    // The text's MessageSid: a second delivery of the same text fails this item.
    named('messageSid', {
      Put: {
        TableName,
        Item: {
          ...keys.messageSid(sms.messageSid),
          entity: 'MESSAGE_SID',
          companyId,
          conversationId: message.conversationId,
          messageId: message.id,
          createdAt: message.createdAt,
          // The lookup goes with the message it leads to.
          ...(message.expiresAt ? { expiresAt: message.expiresAt } : {}),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    }),
    messagePutItem(message),
    // Its media are served by the message's id (message-media.ts): its place is kept, as an outbound text's is.
    ...(message.media ? [messageByIdPutItem(message)] : []),
    ...(found.contact
      ? [
          contactActivityItem(contact, {
            at,
            conversations: before ? 0 : 1,
            conversationId: message.conversationId,
            channelId: channel.id,
          }),
        ]
      : createContactItems(contact, found.staleContactId)),
  ];
  let conversation: ConversationRecord;
  const reopened = before?.status === 'CLOSED';
  if (before) {
    conversation = conversationWithMessage(before, message, { status: 'OPEN', optedOut: optedOut ?? before.optedOut });
    items.push(conversationUpdateItem(before, message, conversation));
    items.push(
      companyCountersItem(
        companyId,
        { smsReceived: 1, ...(reopened ? { openConversations: 1, closedConversations: -1 } : {}) },
        conversationUpdateCounts(before, message, conversation),
      ),
    );
  } else {
    conversation = {
      ...openedConversation({ id: message.conversationId, companyId, contactId: contact.id, phone, channel, at }),
      lastMessage: lastMessageOf(message),
      messageCount: 1,
      optedOut: optedOut ?? false,
      inboundCount: 1,
      lastInboundAt: at,
      // Only at creation: later texts leave the assignee to the team.
      assignee: await assigneeByRouting(channel),
    };
    items.push(...conversationCreateItems(conversation, found.staleConversationId));
    items.push(
      companyCountersItem(companyId, { smsReceived: 1, openConversations: 1 }, assigneeCountChanges(undefined, conversation)),
    );
  }

  const result = await transact(items);
  // Another delivery of this text got there first; else a parallel writer did: read again.
  if (!result.written) return result.failed('messageSid') ? 'duplicate' : undefined;
  return { message, conversation, contact, reopened };
}
