import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';

/**
 * The conversation list marks a conversation whose last message is a text that failed, before or
 * after Twilio took it (docs/product.md: Retry). The summary (`lastMessage`) is written when a message
 * is stored, before Twilio's verdict, so the verdict is added to it here: only while that message is
 * still the conversation's last (its time is `lastMessageAt`); a newer message has replaced the
 * summary already, and the mark with it. Written only when a text fails, or stops being failed.
 */
export async function markLastMessageFailed(
  message: { companyId: string; conversationId: string; createdAt: string },
  failed: boolean,
): Promise<void> {
  await db
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.conversation(message.companyId, message.conversationId),
        UpdateExpression: failed ? 'SET lastMessage.failed = :true' : 'REMOVE lastMessage.failed',
        ConditionExpression: 'lastMessageAt = :at AND attribute_type(lastMessage, :map)',
        ExpressionAttributeValues: { ':at': message.createdAt, ':map': 'M', ...(failed ? { ':true': true } : {}) },
      }),
    )
    .catch((error) => {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
}
