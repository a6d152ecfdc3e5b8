import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type MessageStatus, smsStatusWebhook } from '../../shared/contract/conversations';
import { isFailedStatus } from '../../shared/message-status';
import { countStatusChange } from '../channels/delivery-summary';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type Audience, publish } from '../realtime/publish';
import type { ProviderRecord } from '../settings/records';
import { signedWebhookUrl } from '../settings/webhook-urls';
import { messageErrorText, OPTED_OUT_ERROR } from '../twilio/message-errors';
import { conversationAudience, seenConversation } from './audience';
import { markLastMessageFailed } from './last-message-delivery';
import { STATUS_RANK } from './message-writes';
import { type MessageRecord, type MessageSidRecord, toMessage } from './records';

/**
 * Twilio's status callbacks for sent texts: each moves the message forward only, by a condition on its
 * status rank, so duplicates and callbacks arriving out of order never move it back.
 * https://www.twilio.com/docs/messaging/guides/outbound-message-status-in-status-callbacks
 */

/** Twilio's MessageStatus words; `accepted` and `scheduled` come with Messaging Services, `canceled` ends a scheduled one. */
const FROM_TWILIO: Readonly<Record<string, MessageStatus>> = {
  accepted: 'QUEUED',
  scheduled: 'QUEUED',
  queued: 'QUEUED',
  sending: 'SENDING',
  sent: 'SENT',
  delivered: 'DELIVERED',
  undelivered: 'UNDELIVERED',
  failed: 'FAILED',
  canceled: 'FAILED',
};

export function statusFromTwilio(providerStatus: string): MessageStatus | undefined {
  return FROM_TWILIO[providerStatus.toLowerCase()];
}

type MessageLocation = Pick<MessageSidRecord, 'conversationId' | 'messageId' | 'createdAt'>;

/**
 * The StatusCallback of one message: the provider's recorded webhook URL with the message's place
 * in the table. Twilio signs the whole URL, so the query cannot be forged, and a callback that comes
 * before the MessageSid is recorded still finds its message.
 */
export function statusCallbackUrl(
  provider: Pick<ProviderRecord, 'webhookBaseUrl' | 'webhookId'>,
  message: Pick<MessageRecord, 'conversationId' | 'id' | 'createdAt'>,
) {
  const query = new URLSearchParams({
    conversationId: message.conversationId,
    messageId: message.id,
    createdAt: message.createdAt,
  });
  return `${signedWebhookUrl(provider, smsStatusWebhook)}?${query}`;
}

const ID = /^[\w-]{1,64}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function fromQuery(query: Record<string, string>): MessageLocation | undefined {
  const { conversationId, messageId, createdAt } = query;
  if (!conversationId || !messageId || !createdAt) return undefined;
  if (!ID.test(conversationId) || !ID.test(messageId) || !ISO_TIME.test(createdAt)) return undefined;
  return { conversationId, messageId, createdAt };
}

/** The message of a MessageSid, only within the company of the webhook. */
async function bySid(companyId: string, messageSid: string): Promise<MessageLocation | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.messageSid(messageSid), ConsistentRead: true }),
  );
  const found = Item as MessageSidRecord | undefined;
  return found?.companyId === companyId ? found : undefined;
}

export interface StatusCallback {
  messageSid: string;
  messageStatus: string;
  errorCode?: string;
  segments?: number;
}

/**
 * Records a status Twilio reported, with its error code (and what it means) and segment count, then
 * tells the company. A status that is not ahead of the stored one changes nothing. An opt-out
 * failure (21610) marks the conversation opted out. Unknown messages and statuses are ignored.
 */
export async function recordDeliveryStatus(
  provider: Pick<ProviderRecord, 'companyId'>,
  callback: StatusCallback,
  query: Record<string, string>,
): Promise<void> {
  const status = statusFromTwilio(callback.messageStatus);
  if (!status) return;
  const { companyId } = provider;
  const location = fromQuery(query) ?? (await bySid(companyId, callback.messageSid));
  if (!location) return;
  const errorCode = callback.errorCode ? Number(callback.errorCode) : null;

  // What it was before this update (right-hand sides read the item as it was): the delivery summary
  // moves the message from its old outcome to its new one.
  const sets = [
    'statusBefore = #status',
    'errorCodeBefore = if_not_exists(errorCode, :nothing)',
    '#status = :status',
    'statusRank = :rank',
    'providerStatus = :providerStatus',
    'providerMessageId = :sid',
  ];
  const values: Record<string, unknown> = {
    ':status': status,
    ':rank': STATUS_RANK[status],
    ':providerStatus': callback.messageStatus.toLowerCase(),
    ':sid': callback.messageSid,
    ':outbound': 'OUTBOUND',
  };
  if (errorCode) {
    sets.push('errorCode = :errorCode', 'errorMessage = :errorMessage');
    values[':errorCode'] = errorCode;
    values[':errorMessage'] = messageErrorText(errorCode);
  } else if (status === 'DELIVERED') {
    // Delivered after a failure was reported: the handset got it, so the failure's reason no longer holds.
    sets.push('errorCode = :noError', 'errorMessage = :noError');
    values[':noError'] = null;
  }
  if (callback.segments) {
    sets.push('#segments = :segments');
    values[':segments'] = callback.segments;
  }
  let updated: MessageRecord;
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.message(companyId, location.conversationId, location.createdAt, location.messageId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        // Only forward; only a sent message; only the message Twilio accepted under this sid.
        ConditionExpression:
          'attribute_exists(PK) AND #direction = :outbound AND statusRank < :rank AND ' +
          '(attribute_not_exists(providerMessageId) OR attribute_type(providerMessageId, :null) OR providerMessageId = :sid)',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#direction': 'direction',
          ...(callback.segments ? { '#segments': 'segments' } : {}),
        },
        ExpressionAttributeValues: { ...values, ':null': 'NULL', ':nothing': null },
        ReturnValues: 'ALL_NEW',
      }),
    );
    updated = Attributes as MessageRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return;
    throw error;
  }
  // Who sees the conversation, worked out while the counts below are written.
  const audience = audienceOf(companyId, updated.conversationId);
  const before = {
    status: (updated as { statusBefore?: MessageStatus }).statusBefore,
    errorCode: (updated as { errorCodeBefore?: number | null }).errorCodeBefore ?? null,
  };
  await countStatusChange(updated, before, { status: updated.status, errorCode: updated.errorCode ?? null });
  // The list's mark: a text failed (undelivered after Twilio took it, too), or a handset got it after all.
  const failedNow = isFailedStatus(updated.status);
  if (failedNow !== isFailedStatus(before.status ?? 'QUEUED')) await markLastMessageFailed(updated, failedNow);
  await publish(
    companyId,
    { type: 'message_status_updated', data: { conversationId: updated.conversationId, message: toMessage(updated) } },
    audience,
  );
  if (errorCode === OPTED_OUT_ERROR) await markOptedOut(companyId, updated.conversationId);
}

/** The members who see a conversation known by id (none when it is gone). */
async function audienceOf(companyId: string, conversationId: string): Promise<Audience> {
  const conversation = await seenConversation(companyId, conversationId).catch(() => undefined);
  return conversation ? conversationAudience(conversation) : { userIds: [] };
}

/** The contact opted out of texts on this conversation's channel: sending is refused until they opt in. */
export async function markOptedOut(companyId: string, conversationId: string): Promise<void> {
  await db
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.conversation(companyId, conversationId),
        UpdateExpression: 'SET optedOut = :true',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':true': true },
      }),
    )
    .catch((error) => {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
}
