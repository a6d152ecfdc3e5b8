import type { MemberRef, Message } from '../../shared/contract/conversations';
import { findMentions } from '../../shared/mentions';
import { getActiveUser } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { retentionExpiry } from '../company/retention';
import { unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { keys } from '../lib/table';
import { named, transact } from '../lib/transact';
import { listCompanyUsers } from '../settings/users';
import { channelRoutingNow, membersWhoSee } from '../team/visibility';
import { conversationAudience, publishToViewers } from './audience';
import { messageByIdPutItem, messagePutItem, messageTime, untilCommitted } from './message-writes';
import { addMentions } from './read-markers';
import { type ConversationRecord, type MessageRecord, toMessage } from './records';
import { conversationNotFound } from './thread';
import { getVisibleConversation, type Reader, seeableConversation } from './visible-conversation';

/**
 * Internal notes: stored in the thread like a message (so they read in order with the texts
 * and go with the company's retention), never sent to Twilio. A note is the team's, not the
 * customer's: it leaves the conversation's summary, activity time and message count alone, so the
 * list stays ordered by the customers' activity and no counter of texts moves.
 */
export async function addNote(
  /** Who writes it: a conversation they may not see is not found (visible-conversation.ts). */
  writer: Reader,
  conversationId: string,
  body: string,
  /** Members the author picked from the composer's list: they win over others of the same name. */
  chosenIds: readonly string[] = [],
): Promise<Message> {
  const { companyId, userId } = writer;
  const [conversation, author, members] = await Promise.all([
    getVisibleConversation(writer, conversationId),
    getActiveUser(companyId, userId),
    listCompanyUsers(companyId),
  ]);
  if (!author) throw unauthorized('This account no longer exists.');
  const mentions = findMentions(
    body,
    members.map((m) => ({ id: m.id, name: m.name })),
    chosenIds,
  );
  const granted = await mentionGrantsNeeded(conversation, mentions, userId);
  // After the conversation's newest message, so the note reads below what it is about.
  const at = messageTime(conversation);
  const note: MessageRecord = {
    id: newId(),
    companyId,
    conversationId,
    type: 'NOTE',
    mentions,
    direction: 'OUTBOUND',
    body,
    status: 'SENT',
    createdAt: at,
    sentBy: { id: author.id, name: author.name },
    providerStatus: null,
    providerMessageId: null,
    segments: 0,
    errorCode: null,
    errorMessage: null,
    ...(await retentionExpiry(companyId, at)),
  };
  await untilCommitted(async () => {
    const result = await transact([
      messagePutItem(note),
      messageByIdPutItem(note),
      ...granted.map((grantedId) => mentionGrantPutItem(companyId, grantedId, conversationId, at)),
      // Not onto a conversation deleted meanwhile (the company's deletion).
      named('conversation', granted.length > 0 ? grantOnConversation(conversation, granted) : conversationExists(conversation)),
    ]);
    if (result.written) return true;
    if (result.failed('conversation')) throw conversationNotFound();
    if (result.reasons.every((r) => ['None', 'TransactionConflict'].includes(r.Code ?? 'None'))) return undefined;
    throw result.error;
  });
  // The author wrote it: mentioning themselves makes nothing unread for them.
  await addMentions(
    conversation,
    mentions.filter((m) => m.id !== userId).map((m) => m.id),
  );
  const message = toMessage(note);
  // Those who see the conversation, and the agents the note mentions (it lets them see it from now on).
  await publishToViewers(
    conversation,
    { type: 'note_added', data: { conversationId, message } },
    conversationAudience(conversation, { mentioned: mentions.map((m) => m.id) }),
  );
  return message;
}

/**
 * The agents a note mentions who would not see the conversation otherwise (docs/product.md: Who sees
 * what): the mention lets them see it from then on. No read when the note mentions nobody but its author.
 */
async function mentionGrantsNeeded(
  conversation: ConversationRecord,
  mentions: readonly MemberRef[],
  authorId: string,
): Promise<string[]> {
  const others = mentions.filter((m) => m.id !== authorId);
  if (others.length === 0) return [];
  const routing = await channelRoutingNow(conversation.companyId, conversation.channelId);
  const { assigneeId, mentionedUserIds } = seeableConversation(conversation);
  const seeing = new Set(
    (await membersWhoSee(conversation.companyId, { routing, assigneeId, mentionedUserIds })).map((m) => m.id),
  );
  return [...new Set(others.map((m) => m.id))].filter((id) => !seeing.has(id));
}

/** One agent's grant (keys.mentionGrant): the list finds the conversations mentions let them see by it. */
const mentionGrantPutItem = (companyId: string, userId: string, conversationId: string, grantedAt: string) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.mentionGrant(companyId, userId, conversationId),
      entity: 'MENTION_GRANT',
      companyId,
      userId,
      conversationId,
      grantedAt,
    },
  },
});

const conversationExists = (conversation: ConversationRecord) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.conversation(conversation.companyId, conversation.id),
    ConditionExpression: 'attribute_exists(PK)',
  },
});

/**
 * The granted ids kept on the conversation too, so a route by id decides from the one item it reads.
 * Appended: a list, as the records hold it; two notes granting the same agent at once repeat an id,
 * which changes nothing anyone sees.
 */
const grantOnConversation = (conversation: ConversationRecord, granted: readonly string[]) => ({
  Update: {
    TableName: tableName(),
    Key: keys.conversation(conversation.companyId, conversation.id),
    UpdateExpression: 'SET mentionedUserIds = list_append(if_not_exists(mentionedUserIds, :none), :granted)',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':none': [], ':granted': [...granted] },
  },
});
