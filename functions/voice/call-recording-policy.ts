import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { callingSettings } from '../company/calling-settings';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import type { ChannelRecord, InboxRecord } from '../settings/records';

/**
 * Which calls are recorded (docs/product.md: Call recording): apart from call-recording.ts, so the
 * inbound call's webhook decides without the Twilio client.
 */

/** Whether calls of this channel are recorded now: its inbox's choice, or the company's for private lines. */
export async function channelRecords(channel: Pick<ChannelRecord, 'companyId' | 'routingType' | 'routingTargetId'>) {
  const { companyId, routingType, routingTargetId } = channel;
  if (!routingTargetId) return false;
  if (routingType === 'USER') return (await callingSettings(companyId)).recordPrivateLines;
  if (routingType !== 'INBOX') return false;
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.inbox(companyId, routingTargetId), ConsistentRead: true }),
  );
  return (Item as InboxRecord | undefined)?.recordCalls === true;
}
