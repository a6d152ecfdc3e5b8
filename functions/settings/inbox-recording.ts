import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Inbox } from '../../shared/contract/settings';
import { notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { channelCounts } from './inboxes';
import { type InboxRecord, toInbox } from './records';

/**
 * Records the calls of an inbox's numbers, or stops (docs/product.md: Call recording): calls that
 * come in from now on; a call under way keeps what it started with. Another company's inbox: 404.
 */
export async function setInboxRecording(companyId: string, inboxId: string, enabled: boolean): Promise<Inbox> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.inbox(companyId, inboxId),
        UpdateExpression: 'SET recordCalls = :enabled',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':enabled': enabled },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const counts = await channelCounts(companyId);
    return toInbox(Attributes as InboxRecord, counts.get(inboxId) ?? 0);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw notFound('Inbox not found');
    throw error;
  }
}
