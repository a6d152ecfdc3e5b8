import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './config';
import { db } from './db';

/** A Query without the table and the paging cursor, which `queryPages` fills in. */
export type PagedQuery = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/**
 * Every page of one Query, in order: DynamoDB answers at most 1 MB a page, so a reader that needs
 * all of a partition follows `LastEvaluatedKey` until there is none. The one paging loop of the
 * functions; readers that stop early break out of the `for await`.
 */
export async function* queryPages<T = Record<string, unknown>>(query: PagedQuery): AsyncGenerator<T[]> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...query, TableName: tableName(), ExclusiveStartKey }));
    yield (page.Items ?? []) as T[];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

export interface PrefixQueryOptions {
  /** Keeps only the items this condition holds for (read, then dropped: it costs the reads). */
  filter?: { expression: string; values: Record<string, unknown> };
  /** Attributes to read (ProjectionExpression). */
  projection?: string;
  consistent?: boolean;
  /** Highest sort key first. */
  descending?: boolean;
}

/** Sorts after every character a key can hold: the end of a prefix's range. */
const LAST_CHARACTER = '\u{10FFFF}';

/**
 * The Query of one partition's items whose sort key starts with the prefix (`keys.*Of`). A range
 * rather than begins_with: the same items, and DynamoDB Local then reads only them (its begins_with
 * walks the whole partition, and a company's partition holds its calls, users and sockets).
 */
export function prefixQuery(key: { PK: string; SKPrefix: string }, options: PrefixQueryOptions = {}): PagedQuery {
  return {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefix AND :end',
    FilterExpression: options.filter?.expression,
    ProjectionExpression: options.projection,
    ExpressionAttributeValues: {
      ':pk': key.PK,
      ':prefix': key.SKPrefix,
      ':end': `${key.SKPrefix}${LAST_CHARACTER}`,
      ...options.filter?.values,
    },
    ConsistentRead: options.consistent,
    ScanIndexForward: options.descending ? false : undefined,
  };
}

/** Every item of one partition whose sort key starts with the prefix: one Query, paged through. */
export async function queryPrefix<T>(key: { PK: string; SKPrefix: string }, options: PrefixQueryOptions = {}): Promise<T[]> {
  const items: T[] = [];
  for await (const page of queryPages<T>(prefixQuery(key, options))) items.push(...page);
  return items;
}
