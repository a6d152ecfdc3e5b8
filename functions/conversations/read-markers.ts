import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Conversation } from '../../shared/contract/conversations';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { publish } from '../realtime/publish';
import { toConversationView } from './conversation-views';
import type { ConversationRecord } from './records';
import type { ReadMarkerRecord } from './unread';
import { getVisibleConversation, type Reader } from './visible-conversation';

/**
 * Members' last-read markers (keys.conversationRead, unread.ts): written when a member reads a
 * conversation or a note mentions them, never per text, and only ever the member's own.
 */

/**
 * POST /api/v1/conversations/{id}/read: the caller has read every inbound text so far and every
 * mention of them; their other tabs hear it (conversation_read to their own sockets only).
 */
export async function markRead(reader: Reader, conversationId: string): Promise<Conversation> {
  const { companyId, userId } = reader;
  const record = await getVisibleConversation(reader, conversationId);
  const marker: ReadMarkerRecord = {
    companyId,
    conversationId,
    userId,
    readInboundCount: record.inboundCount ?? 0,
    mentions: 0,
    readAt: new Date().toISOString(),
  };
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.conversationRead(companyId, conversationId, userId),
      UpdateExpression:
        'SET entity = :entity, companyId = :companyId, conversationId = :conversationId, userId = :userId, ' +
        'readInboundCount = :read, mentions = :zero, readAt = :readAt',
      ExpressionAttributeValues: {
        ':entity': 'CONVERSATION_READ',
        ':companyId': companyId,
        ':conversationId': conversationId,
        ':userId': userId,
        ':read': marker.readInboundCount,
        ':zero': 0,
        ':readAt': marker.readAt,
      },
    }),
  );
  const conversation = { ...(await toConversationView(record)), unreadCount: 0 };
  await publish(companyId, { type: 'conversation_read', data: { conversationId } }, { userIds: [userId] });
  return conversation;
}

/**
 * A note mentioned these members: one more unread mention on each one's marker. A member who never
 * read the conversation gets a marker at its inbound count now, so the mention alone is unread (not
 * the whole history, which the join-time rule already decides).
 */
export async function addMentions(conversation: ConversationRecord, userIds: readonly string[]): Promise<void> {
  const { companyId, id: conversationId } = conversation;
  await Promise.all(
    userIds.map((userId) =>
      db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.conversationRead(companyId, conversationId, userId),
          UpdateExpression:
            'SET entity = :entity, companyId = :companyId, conversationId = :conversationId, userId = :userId, ' +
            'readInboundCount = if_not_exists(readInboundCount, :inbound), readAt = if_not_exists(readAt, :never) ' +
            'ADD mentions :one',
          ExpressionAttributeValues: {
            ':entity': 'CONVERSATION_READ',
            ':companyId': companyId,
            ':conversationId': conversationId,
            ':userId': userId,
            ':inbound': conversation.inboundCount ?? 0,
            ':never': null,
            ':one': 1,
          },
        }),
      ),
    ),
  );
}
