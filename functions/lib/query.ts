import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './config';
import { db } from './db';

/** Every item of one partition whose sort key starts with the prefix: one Query, paged through. */
export async function queryPrefix<T>(key: { PK: string; SKPrefix: string }): Promise<T[]> {
  const items: T[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': key.PK, ':prefix': key.SKPrefix },
        ExclusiveStartKey,
      }),
    );
    items.push(...((page.Items ?? []) as T[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}
