import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Message } from '../../shared/contract/conversations';
import { canResend, canRetry } from '../../shared/message-status';
import { smsSegments } from '../../shared/sms-segments';
import { getActiveUser } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { countSent, countStatusChange } from '../channels/delivery-summary';
import { retentionExpiry } from '../company/retention';
import { AppError, conflict, notFound, unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { logError } from '../lib/log';
import { keys } from '../lib/table';
import { transact } from '../lib/transact';
import type { ChannelRecord, ProviderRecord } from '../settings/records';
import { clientFor } from '../settings/twilio-account';
import { OPTED_OUT_ERROR } from '../twilio/message-errors';
import { TwilioApiError, type TwilioMessage } from '../twilio/rest-client';
import { publishToViewers } from './audience';
import { companyCountersItem } from './company-counters';
import { toConversationView } from './conversation-views';
import { markOptedOut, statusCallbackUrl } from './delivery-status';
import { markLastMessageFailed } from './last-message-delivery';
import {
  conversationUpdateCounts,
  conversationUpdateItem,
  conversationWithMessage,
  messageByIdPutItem,
  messagePutItem,
  messageTime,
  STATUS_RANK,
  untilCommitted,
} from './message-writes';
import type { CheckedPicture } from './pictures';
import { type ConversationRecord, type MessageMediaRecord, type MessageRecord, toMessage, toSharedConversation } from './records';
import { countText } from './sending-limits';
import { requireSendingRoute } from './sending-route';
import { findMessageRecord, getConversationRecord } from './thread';
import { getVisibleConversation, type Reader } from './visible-conversation';

export const optedOutMessage =
  'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.';

/**
 * Sends an agent's text: checks the conversation can still send, stores the message (QUEUED) with the
 * conversation's summary and the company's counter, then hands it to Twilio with a per-message
 * StatusCallback. Twilio's refusal or silence is stored on the message as FAILED with the reason: the
 * text the agent typed is never lost. Tells the company (message_sent) either way.
 */
export async function sendSms(
  /** Who sends: a conversation they may not see is not found (visible-conversation.ts). */
  sender: Reader,
  conversationId: string,
  body: string,
  /**
   * Uploads the text carries (docs/product.md: Pictures out), those a caller has checked already, or a
   * failed text's own pictures, sent again.
   */
  pictures: readonly string[] | { checked: readonly CheckedPicture[] } | { kept: readonly MessageMediaRecord[] } = [],
  options: {
    /** The new message's id, when it was chosen first (a failed text sent again names it beforehand). */
    messageId?: string;
    /** Counted against the sending limits already (a new conversation counts its text before creating it). */
    counted?: boolean;
  } = {},
): Promise<Message> {
  const { messageId = newId(), counted = false } = options;
  const { companyId, userId } = sender;
  const [conversation, user] = await Promise.all([
    getVisibleConversation(sender, conversationId),
    getActiveUser(companyId, userId),
  ]);
  if (!user) throw unauthorized('This account no longer exists.');
  const { channel, provider } = await requireSendingRoute(conversation);
  if (conversation.optedOut) throw conflict(optedOutMessage, 'OPTED_OUT');
  // Checked and kept before the text is stored: a refused picture stores and sends nothing.
  const media = await withPictures(companyId, pictures, { channel, to: conversation.contactPhone });
  // Counted once it is known to go, before anything is stored: a refused text leaves no trace.
  if (!counted) await countText(companyId, userId, body, media?.length ?? 0);

  // The text's time is kept across attempts: one that lost to a newer message is then added before it.
  let at: string | undefined;
  const { message, conversation: after } = await untilCommitted(async () => {
    // Read again on every attempt: the update below holds only against the latest state.
    const before = await getConversationRecord(companyId, conversationId);
    at = at === undefined || at === before.lastMessageAt ? messageTime(before) : at;
    return tryStore(before, body, { id: user.id, name: user.name }, at, media, messageId);
  });
  await countSent(message);
  const sent = await handToTwilio(provider, channel, after, message);
  const view = toSharedConversation(await toConversationView(after));
  // Twilio refused it at once: the summary read before says so too, as a read of the list now would.
  if (sent.status === 'FAILED' && view.lastMessage && view.lastMessageAt === sent.createdAt) {
    view.lastMessage = { ...view.lastMessage, failed: true };
  }
  await publishToViewers(after, { type: 'message_sent', data: { conversationId, message: sent, conversation: view } });
  return sent;
}

/**
 * Retry of a failed outbound text (docs/product.md: Retry). One Twilio never took (no MessageSid) is
 * sent again as the same message (same place in the thread, counted once): no late status of the first
 * attempt can land on it. One that failed after Twilio took it is sent as a new message with the same
 * words, by `sender`, since Twilio cannot send a message twice; `created` says which.
 */
export async function retrySms(
  sender: Reader,
  conversationId: string,
  messageId: string,
): Promise<{ message: Message; created: boolean }> {
  const { companyId } = sender;
  const conversation = await getVisibleConversation(sender, conversationId);
  const failed = await findMessageRecord(companyId, conversationId, messageId);
  if (!failed) throw notFound('Message not found');
  if (canResend(failed)) return { message: await resendSms(conversation, sender, failed), created: true };
  if (!canRetry(failed)) {
    throw conflict(
      failed.resentAs ? 'This message was already sent again.' : 'Only a sent message that failed can be sent again.',
      'CONFLICT',
    );
  }
  return { message: await retryAsItself(conversation, sender.userId, failed), created: false };
}

/**
 * The text Twilio never took, back to QUEUED with the reason cleared, then as a send; two retries at
 * once send it once.
 */
async function retryAsItself(conversation: ConversationRecord, userId: string, failed: MessageRecord): Promise<Message> {
  const { companyId, id: conversationId } = conversation;
  const { channel, provider } = await requireSendingRoute(conversation);
  if (conversation.optedOut) throw conflict(optedOutMessage, 'OPTED_OUT');
  // Twilio is asked again, so it counts against the one who retries, like a new text.
  const uncount = await countText(companyId, userId, failed.body, failed.media?.length ?? 0);

  let queued: MessageRecord;
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(failed),
        UpdateExpression:
          'SET #status = :queued, statusRank = :rank, providerStatus = :none, errorCode = :none, errorMessage = :none',
        ConditionExpression: '#status = :failed AND providerMessageId = :none',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queued': 'QUEUED', ':rank': STATUS_RANK.QUEUED, ':failed': 'FAILED', ':none': null },
        ReturnValues: 'ALL_NEW',
      }),
    );
    queued = Attributes as MessageRecord;
  } catch (error) {
    await uncount();
    if (error instanceof ConditionalCheckFailedException) throw conflict('This message is already being sent again.', 'CONFLICT');
    throw error;
  }
  // No longer failed: the delivery summary counts it by how this attempt ends.
  await countStatusChange(
    queued,
    { status: 'FAILED', errorCode: failed.errorCode ?? null },
    { status: 'QUEUED', errorCode: null },
  );
  // No longer the list's failed last message, while it is on its way again.
  await markLastMessageFailed(queued, false);
  const sent = await handToTwilio(provider, channel, conversation, queued);
  await publishToViewers(conversation, { type: 'message_status_updated', data: { conversationId, message: sent } });
  return sent;
}

/**
 * A text that failed after Twilio took it, sent again as a new message with its words and pictures. The failed one
 * is claimed first (`resentAs`, the new message's id), so two retries at once send it once; should the
 * send be refused before anything is stored, the claim is let go and Retry stays.
 */
async function resendSms(conversation: ConversationRecord, sender: Reader, failed: MessageRecord): Promise<Message> {
  const { companyId, id: conversationId } = conversation;
  await requireSendingRoute(conversation);
  if (conversation.optedOut) throw conflict(optedOutMessage, 'OPTED_OUT');
  const resentAs = newId();
  let claimed: MessageRecord;
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(failed),
        UpdateExpression: 'SET resentAs = :resentAs',
        ConditionExpression: 'attribute_not_exists(resentAs) AND providerMessageId = :sid',
        ExpressionAttributeValues: { ':resentAs': resentAs, ':sid': failed.providerMessageId },
        ReturnValues: 'ALL_NEW',
      }),
    );
    claimed = Attributes as MessageRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw conflict('This message was already sent again.', 'CONFLICT');
    throw error;
  }
  let sent: Message;
  try {
    sent = await sendSms(sender, conversationId, failed.body, { kept: failed.media ?? [] }, { messageId: resentAs });
  } catch (error) {
    // Refused before anything was stored (the sender removed meanwhile, the channel gone): Retry stays.
    if (!(error instanceof AppError)) throw error;
    await db
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: messageKey(failed),
          UpdateExpression: 'REMOVE resentAs',
          ConditionExpression: 'resentAs = :resentAs',
          ExpressionAttributeValues: { ':resentAs': resentAs },
        }),
      )
      .catch(() => undefined);
    throw error;
  }
  // Other tabs put away the failed text's Retry.
  await publishToViewers(conversation, { type: 'message_status_updated', data: { conversationId, message: toMessage(claimed) } });
  return sent;
}

/**
 * The media records of a text's pictures: none for a plain text, without loading the pictures module
 * (the S3 client and the phone-number metadata stay out of its cold start).
 */
async function withPictures(
  companyId: string,
  pictures: readonly string[] | { checked: readonly CheckedPicture[] } | { kept: readonly MessageMediaRecord[] },
  route: { channel: ChannelRecord; to: string },
): Promise<MessageMediaRecord[] | undefined> {
  if ('kept' in pictures) return pictures.kept.length ? [...pictures.kept] : undefined;
  const checked = 'checked' in pictures ? pictures.checked : undefined;
  if ((checked ?? (pictures as readonly string[])).length === 0) return undefined;
  const { checkPictures, keepPictures } = await import('./pictures');
  return keepPictures(companyId, checked ?? (await checkPictures(companyId, pictures as readonly string[], route)));
}

async function tryStore(
  before: ConversationRecord,
  body: string,
  sentBy: { id: string; name: string },
  at: string,
  media: MessageMediaRecord[] | undefined,
  id: string,
) {
  const { companyId } = before;
  const message: MessageRecord = {
    id,
    companyId,
    conversationId: before.id,
    direction: 'OUTBOUND',
    body,
    status: 'QUEUED',
    createdAt: at,
    sentBy,
    providerStatus: null,
    providerMessageId: null,
    segments: smsSegments(body).segments,
    errorCode: null,
    errorMessage: null,
    channelId: before.channelId,
    ...(media ? { media } : {}),
    ...(await retentionExpiry(companyId, at)),
  };
  const after = conversationWithMessage(before, message);
  const result = await transact([
    messagePutItem(message),
    messageByIdPutItem(message),
    conversationUpdateItem(before, message, after),
    companyCountersItem(companyId, { smsSent: 1 }, conversationUpdateCounts(before, message, after)),
  ]);
  // Not written: a parallel writer changed the conversation since it was read.
  return result.written ? { message, conversation: after } : undefined;
}

/** Sends through Twilio and records its answer on the message; answers the message as stored then. */
async function handToTwilio(
  provider: ProviderRecord,
  channel: ChannelRecord,
  conversation: ConversationRecord,
  message: MessageRecord,
): Promise<Message> {
  let accepted: TwilioMessage;
  try {
    // Sent pictures go as URLs Twilio fetches, signed now for PICTURE_URL_SECONDS (a retry signs anew).
    const mediaUrls = message.media?.length ? await (await import('./pictures')).mediaUrlsForTwilio(message.media) : [];
    const client = await clientFor(provider);
    accepted = await client.sendMessage({
      From: channel.identifier,
      To: conversation.contactPhone,
      Body: message.body,
      StatusCallback: statusCallbackUrl(provider, message),
      MediaUrl: mediaUrls,
    });
  } catch (error) {
    if (error instanceof TwilioApiError) {
      if (error.code === OPTED_OUT_ERROR) await markOptedOut(message.companyId, message.conversationId);
      const reason = error.timedOut
        ? 'Twilio did not answer in time, so this message may not have been sent.'
        : error.status === 0
          ? `Twilio could not be reached, so this message may not have been sent (${error.message}).`
          : error.message;
      return recordFailure(message, error.code ?? null, reason);
    }
    logError({ route: 'sendMessage', companyId: message.companyId, conversationId: message.conversationId }, error);
    return recordFailure(message, null, 'The message could not be handed to Twilio. Try again.');
  }
  return recordAcceptance(message, accepted);
}

function messageKey(message: MessageRecord) {
  return keys.message(message.companyId, message.conversationId, message.createdAt, message.id);
}

/**
 * Twilio took the message: its sid (also as a lookup item for callbacks that carry only the sid) and
 * segment count. The status stays as it is, unless still QUEUED: a callback may already have moved it.
 */
async function recordAcceptance(message: MessageRecord, accepted: TwilioMessage): Promise<Message> {
  const TableName = tableName();
  const segments = Number(accepted.num_segments) || message.segments;
  await db.send(
    new PutCommand({
      TableName,
      Item: {
        ...keys.messageSid(accepted.sid),
        entity: 'MESSAGE_SID',
        companyId: message.companyId,
        conversationId: message.conversationId,
        messageId: message.id,
        createdAt: message.createdAt,
        ...(message.expiresAt ? { expiresAt: message.expiresAt } : {}),
      },
    }),
  );
  const update = (withStatus: boolean) =>
    db.send(
      new UpdateCommand({
        TableName,
        Key: messageKey(message),
        UpdateExpression: `SET providerMessageId = :sid, #segments = :segments${withStatus ? ', providerStatus = :status' : ''}`,
        ConditionExpression: withStatus ? 'statusRank <= :queued' : undefined,
        ExpressionAttributeNames: { '#segments': 'segments' },
        ExpressionAttributeValues: {
          ':sid': accepted.sid,
          ':segments': segments,
          ...(withStatus ? { ':status': accepted.status, ':queued': STATUS_RANK.QUEUED } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
  const { Attributes } = await update(true).catch((error) => {
    if (error instanceof ConditionalCheckFailedException) return update(false);
    throw error;
  });
  return toMessage(Attributes as MessageRecord);
}

/** Twilio refused the message or could not be asked: FAILED with the reason, unless a callback settled it first. */
async function recordFailure(message: MessageRecord, errorCode: number | null, errorMessage: string): Promise<Message> {
  const TableName = tableName();
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName,
        Key: messageKey(message),
        UpdateExpression:
          'SET #status = :failed, statusRank = :rank, providerStatus = :providerStatus, errorCode = :code, errorMessage = :reason',
        // A timed-out request may still have been sent: a delivery reported meanwhile stands.
        ConditionExpression: 'statusRank < :rank',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':failed': 'FAILED',
          ':rank': STATUS_RANK.FAILED,
          ':providerStatus': 'failed',
          ':code': errorCode,
          ':reason': errorMessage,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    await countStatusChange(message, { status: message.status, errorCode: null }, { status: 'FAILED', errorCode });
    await markLastMessageFailed(message, true);
    return toMessage(Attributes as MessageRecord);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const { Item } = await db.send(new GetCommand({ TableName, Key: messageKey(message), ConsistentRead: true }));
    return toMessage(Item as MessageRecord);
  }
}
