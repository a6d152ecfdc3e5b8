import type {
  Conversation,
  ConversationStatus,
  Message,
  MessageStatus,
  SharedConversation,
} from '../../shared/contract/conversations';
// The schema-free descriptor: records are read by socket handlers that carry no zod.
import { messageMedia } from '../../shared/contract/endpoints/conversations';
import { fillPath } from '../../shared/contract/route';
import type { MediaKind } from '../../shared/media-kinds';
import { keys } from '../lib/table';

/**
 * Stored shapes of contacts, conversations and messages, and their API views. Contacts are shared
 * with the contacts and voice features (callCount is theirs to keep); there is one way to store them.
 */

export interface ContactRecord {
  id: string;
  companyId: string;
  /** '' until somebody names the contact. */
  name: string;
  /** E.164; fixed after creation (keys.contactPhone holds its uniqueness). */
  phoneNumber: string;
  email: string | null;
  notes: string | null;
  callCount: number;
  conversationCount: number;
  lastContactAt: string | null;
  /** The conversation of the latest text to or from the contact; absent on contacts stored before it was kept. */
  lastConversationId?: string | null;
  createdAt: string;
}

export interface ConversationRecord {
  id: string;
  companyId: string;
  status: ConversationStatus;
  contactId: string;
  /** The contact's number, kept here so the conversation still reads after the contact is deleted. */
  contactPhone: string;
  channelId: string;
  channelIdentifier: string;
  /** `mediaCount` and `mediaKinds` only when the message had media; `sentBy` only for an outbound one sent from the app. */
  lastMessage: {
    direction: 'INBOUND' | 'OUTBOUND';
    body: string;
    mediaCount?: number;
    mediaKinds?: MediaKind[];
    sentBy?: { id: string; name: string };
    /** The last message is a text that failed (functions/conversations/last-message-delivery.ts). */
    failed?: boolean;
  } | null;
  lastMessageAt: string;
  messageCount: number;
  optedOut: boolean;
  createdAt: string;
  /** Who owns it; absent on conversations stored before assignment: unassigned. */
  assignee?: { id: string; name: string } | null;
  /** Inbound texts so far and the latest one's time: unread counts compare them with a member's marker. Absent before. */
  inboundCount?: number;
  lastInboundAt?: string;
  /**
   * Agents a note mentioned who would not see the conversation otherwise (keys.mentionGrant, written in
   * the note's transaction): they see it from then on (docs/product.md: Who sees what). Absent: none.
   */
  mentionedUserIds?: string[];
  // Index entries (keys.conversationByStatus / conversationByActivity / conversationByAssignee / conversationByChannel) live on this item too.
}

/** What every conversation opened now with a contact on a channel starts with; its first message sets the rest. */
export const openedConversation = (opened: {
  id: string;
  companyId: string;
  contactId: string;
  phone: string;
  channel: { id: string; identifier: string };
  at: string;
}) => ({
  id: opened.id,
  companyId: opened.companyId,
  status: 'OPEN' as const,
  contactId: opened.contactId,
  contactPhone: opened.phone,
  channelId: opened.channel.id,
  channelIdentifier: opened.channel.identifier,
  lastMessageAt: opened.at,
  createdAt: opened.at,
});

export interface MessageRecord {
  id: string;
  companyId: string;
  conversationId: string;
  /** NOTE for an internal note; absent on texts. */
  type?: 'SMS' | 'NOTE';
  /** A note's resolved mentions; absent on texts. */
  mentions?: { id: string; name: string }[];
  direction: 'INBOUND' | 'OUTBOUND';
  body: string;
  status: MessageStatus;
  createdAt: string;
  /** Absent on outbound texts stored before it was kept. */
  sentBy?: { id: string; name: string } | null;
  providerStatus: string | null;
  providerMessageId: string | null;
  segments: number;
  errorCode: number | null;
  errorMessage: string | null;
  /**
   * The channel an outbound text went out on (its conversation's), for the channel's delivery summary;
   * absent on inbound texts and on outbound ones stored before it was kept, which are not counted.
   */
  channelId?: string;
  /** The table's TTL when the company keeps messages for a while only (functions/company/retention.ts). */
  expiresAt?: number;
  /** An MMS's media: an inbound one's in Twilio's order, a sent one's in the order attached; absent on a text without any. */
  media?: MessageMediaRecord[];
  /** The new message a text that failed after Twilio took it was sent again as (Retry). */
  resentAs?: string;
}

/**
 * A media item: an inbound one as Twilio announced it (its SID, ME…, and its URL, fetched with the
 * company's credentials); a sent picture by its key in the pictures bucket (functions/lib/picture-bucket.ts),
 * never shown to anyone.
 */
export type MessageMediaRecord =
  | { contentType: string; sid: string; url: string; key?: undefined }
  | { contentType: string; key: string; sid?: undefined; url?: undefined };

/** What keys.messageSid holds: where the message of a Twilio MessageSid lives. */
export interface MessageSidRecord {
  companyId: string;
  conversationId: string;
  messageId: string;
  createdAt: string;
}

export function toMessage(record: MessageRecord): Message {
  return {
    id: record.id,
    conversationId: record.conversationId,
    type: record.type ?? 'SMS',
    direction: record.direction,
    body: record.body,
    status: record.status,
    createdAt: record.createdAt,
    // Absent on texts stored before senders were kept: unknown, never guessed.
    sentBy: record.sentBy ?? null,
    mentions: record.mentions ?? [],
    media: (record.media ?? []).map((item, index) => ({
      contentType: item.contentType,
      url: fillPath(messageMedia.path, { id: record.conversationId, messageId: record.id, index: String(index) }),
    })),
    smsMessage: {
      providerStatus: record.providerStatus,
      providerMessageId: record.providerMessageId,
      segments: record.segments,
      errorCode: record.errorCode,
      errorMessage: record.errorMessage,
    },
    ...(record.resentAs ? { resentAs: record.resentAs } : {}),
  };
}

/**
 * The list's view; `contact` is the current contact record, absent once it was deleted; `unreadCount`
 * the reader's (0 where there is no one reader: events).
 */
export function toConversation(record: ConversationRecord, contact: ContactRecord | undefined, unreadCount = 0): Conversation {
  return {
    id: record.id,
    status: record.status,
    contact: contact
      ? { id: contact.id, name: contact.name, phoneNumber: contact.phoneNumber }
      : { id: null, name: '', phoneNumber: record.contactPhone },
    channel: { id: record.channelId, identifier: record.channelIdentifier },
    lastMessage: record.lastMessage,
    lastMessageAt: record.lastMessageAt,
    messageCount: record.messageCount,
    optedOut: record.optedOut,
    createdAt: record.createdAt,
    assignee: record.assignee ?? null,
    unreadCount,
  };
}

/** A conversation as events push it to the whole company: no one reader, so no unread count. */
export function toSharedConversation(conversation: Conversation): SharedConversation {
  const { unreadCount: _reader, ...shared } = conversation;
  return shared;
}

/**
 * The index attributes a conversation item carries; rewrite them whenever status, lastMessageAt or the
 * assignee changes. The assignee entry (GSI3) is counted (assigneeCounter) in the same transaction
 * that writes it.
 */
export function conversationIndexEntries(
  record: Pick<ConversationRecord, 'companyId' | 'id' | 'status' | 'lastMessageAt' | 'assignee' | 'channelId'>,
) {
  return {
    ...keys.conversationByStatus(record.companyId, record.status, record.lastMessageAt, record.id),
    ...keys.conversationByActivity(record.companyId, record.lastMessageAt, record.id),
    ...keys.conversationByAssignee(record.companyId, record.assignee?.id ?? null, record.status, record.lastMessageAt, record.id),
    ...keys.conversationByChannel(record.companyId, record.channelId, record.status, record.lastMessageAt, record.id),
  };
}

/**
 * Whether the stored item has its assignee entry (GSI3). Conversations stored before assignment have
 * none, and are neither listed by the assignee filters nor counted in their totals, until a write
 * rewrites their index entries (a newer message, a status change, an assignment): that write adds
 * the entry and counts it in one transaction, so filters and totals agree all along. A lazy backfill
 * rather than a one-off migration: nothing has to read every company's conversations, and an idle old
 * conversation is only missing from "Unassigned" (it still shows under All, by status).
 */
export function hasAssigneeEntry(record: ConversationRecord): boolean {
  return typeof (record as { GSI3PK?: unknown }).GSI3PK === 'string';
}

/**
 * A condition that the item's assignee entry is still the one `read` had (or still none): a write that
 * moves the per-assignee counters or rewrites the entry must not count from an assignee or status that
 * a parallel change replaced meanwhile.
 */
export function assigneeEntryUnchanged(read: ConversationRecord): { expression: string; values: Record<string, unknown> } {
  const entry = (read as { GSI3PK?: unknown }).GSI3PK;
  const assignee =
    typeof entry === 'string'
      ? { expression: 'GSI3PK = :assigneeEntryBefore', values: { ':assigneeEntryBefore': entry } }
      : { expression: 'attribute_not_exists(GSI3PK)', values: {} };
  // The channel entry is counted from what was read too (hasChannelEntry): a parallel write that adds it
  // to a conversation stored before it must not have it counted twice.
  const channel = (read as { GSI4PK?: unknown }).GSI4PK;
  return typeof channel === 'string'
    ? {
        expression: `${assignee.expression} AND GSI4PK = :channelEntryBefore`,
        values: { ...assignee.values, ':channelEntryBefore': channel },
      }
    : { expression: `${assignee.expression} AND attribute_not_exists(GSI4PK)`, values: assignee.values };
}

/**
 * Whether the stored item has its channel entry (GSI4). Conversations stored before it have none until
 * their next change writes it and counts it (channelCounter) in one transaction, as with the assignee
 * entry (hasAssigneeEntry): an agent's list and its total leave them out meanwhile
 * (docs/architecture.md §4).
 */
export function hasChannelEntry(record: ConversationRecord | Record<string, unknown>): boolean {
  return typeof (record as { GSI4PK?: unknown }).GSI4PK === 'string';
}

/**
 * The company's counters (company-counters.ts), changed in the same transaction as what they count:
 * list totals and the dashboard read them instead of counting.
 */
export const COMPANY_COUNTERS = {
  openConversations: 'openConversationCount',
  closedConversations: 'closedConversationCount',
  smsSent: 'smsSentCount',
  smsReceived: 'smsReceivedCount',
} as const;

/**
 * The counter of the conversations of one assignee (null: unassigned) and status, kept on the
 * company's counter shards (company-counters.ts): the totals of the list's assignee filters (issue
 * 27). One attribute per member and status, only for members who ever had a conversation, so a shard
 * stays far from DynamoDB's item size limit.
 */
export const assigneeCounter = (assigneeId: string | null, status: ConversationStatus) =>
  `${status === 'OPEN' ? 'assignedOpen' : 'assignedClosed'}#${assigneeId ?? 'NONE'}`;

/**
 * The counter of a channel's conversations of one status that have their channel entry (GSI4), on the
 * company's counter shards: an agent's list total sums those of the channels they see. One attribute
 * per channel and status (channels are few).
 */
export const channelCounter = (channelId: string, status: ConversationStatus) =>
  `${status === 'OPEN' ? 'channelOpen' : 'channelClosed'}#${channelId}`;

/**
 * The counter of one assignee's (null: unassigned) conversations of one status on one channel, with
 * their channel entry, on the same shards: an agent's totals count a colleague's or their own
 * conversations on the channels they see without reading them. One attribute per assignee, channel
 * and status that ever met (an assignee is one who sees the channel: mayBeAssigned), so a team of 20
 * on 10 numbers keeps a shard near 30 KB of DynamoDB's 400 KB.
 */
export const assigneeChannelCounter = (assigneeId: string | null, channelId: string, status: ConversationStatus) =>
  `${status === 'OPEN' ? 'assignedChannelOpen' : 'assignedChannelClosed'}#${assigneeId ?? 'NONE'}#${channelId}`;

export type CompanyCounter = keyof typeof COMPANY_COUNTERS;
export type CompanyCounts = Record<CompanyCounter, number>;

/** The counts in `items` (a company item, its shards, or any mix), summed; absent counters are 0. */
export function sumCounts(items: Record<string, unknown>[]): CompanyCounts {
  const sum = (name: string) => items.reduce((total, item) => total + Number(item[name] ?? 0), 0);
  return Object.fromEntries(Object.entries(COMPANY_COUNTERS).map(([counter, name]) => [counter, sum(name)])) as CompanyCounts;
}
