import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Retention } from '../../shared/contract/company';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';

/**
 * The company's message retention (docs/product.md: Message retention), kept on the company item.
 * Messages and calls written while it is set carry the table's TTL attribute (`expiresAt`), and
 * DynamoDB deletes them some time after it passes. Items written before keep none, so changing the
 * setting never rewrites history: it applies to what is written from then on.
 */
export async function getRetention(companyId: string): Promise<Retention> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.company(companyId), ProjectionExpression: 'messageRetentionDays' }),
  );
  const days = Item?.messageRetentionDays;
  return { messageRetentionDays: typeof days === 'number' ? (days as Retention['messageRetentionDays']) : null };
}

export async function setRetention(companyId: string, retention: Retention): Promise<Retention> {
  const days = retention.messageRetentionDays;
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.company(companyId),
      ConditionExpression: 'attribute_exists(PK)',
      ...(days === null
        ? { UpdateExpression: 'REMOVE messageRetentionDays' }
        : { UpdateExpression: 'SET messageRetentionDays = :days', ExpressionAttributeValues: { ':days': days } }),
    }),
  );
  return { messageRetentionDays: days };
}

/** The TTL (epoch seconds) of a message or call written at `createdAt`, or nothing when the company keeps them. */
export async function retentionExpiry(companyId: string, createdAt: string): Promise<{ expiresAt?: number }> {
  const { messageRetentionDays } = await getRetention(companyId);
  if (messageRetentionDays === null) return {};
  return { expiresAt: Math.floor(Date.parse(createdAt) / 1000) + messageRetentionDays * 24 * 60 * 60 };
}
