import type { Message } from '../../shared/contract/conversations';
import { findMentions } from '../../shared/mentions';
import { getActiveUser } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { retentionExpiry } from '../company/retention';
import { unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { keys } from '../lib/table';
import { named, transact } from '../lib/transact';
import { listCompanyUsers } from '../settings/users';
import { conversationAudience, publishToViewers } from './audience';
import { messageByIdPutItem, messagePutItem, messageTime, untilCommitted } from './message-writes';
import { addMentions } from './read-markers';
import { type MessageRecord, toMessage } from './records';
import { conversationNotFound, getConversationRecord } from './thread';

/**
 * Internal notes: stored in the thread like a message (so they read in order with the texts
 * and go with the company's retention), never sent to Twilio. A note is the team's, not the
 * customer's: it leaves the conversation's summary, activity time and message count alone, so the
 * list stays ordered by the customers' activity and no counter of texts moves.
 */
export async function addNote(
  companyId: string,
  userId: string,
  conversationId: string,
  body: string,
  /** Members the author picked from the composer's list: they win over others of the same name. */
  chosenIds: readonly string[] = [],
): Promise<Message> {
  const [conversation, author, members] = await Promise.all([
    getConversationRecord(companyId, conversationId),
    getActiveUser(companyId, userId),
    listCompanyUsers(companyId),
  ]);
  if (!author) throw unauthorized('This account no longer exists.');
  const mentions = findMentions(
    body,
    members.map((m) => ({ id: m.id, name: m.name })),
    chosenIds,
  );
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
      // Not onto a conversation deleted meanwhile (the company's deletion).
      named('conversation', {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.conversation(companyId, conversationId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      }),
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
