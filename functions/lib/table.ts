/**
 * The single table's layout: key names, indexes, the TTL attribute and every key builder, in one
 * module. The CDK table (infra/) and the local table (local/) are both created from `tableDefinition`.
 */

export const TABLE_KEYS = { partitionKey: 'PK', sortKey: 'SK' } as const;

export const GSI1 = { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' } as const;

/** Epoch seconds; DynamoDB deletes the item some time after this passes, so readers still check it. */
export const TTL_ATTRIBUTE = 'expiresAt';

export const tableDefinition = {
  partitionKey: TABLE_KEYS.partitionKey,
  sortKey: TABLE_KEYS.sortKey,
  globalSecondaryIndexes: [GSI1],
  ttlAttribute: TTL_ATTRIBUTE,
} as const;

/** Key builders. Every item of company data starts its partition with the company. */
export const keys = {
  company: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SK: 'META' }),
  /** GSI1 entry that lists every company for platform administrators, newest last. */
  companyListing: (createdAt: string, companyId: string) => ({ GSI1PK: 'COMPANIES', GSI1SK: `${createdAt}#${companyId}` }),
  user: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SK: `USER#${userId}` }),
  usersOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'USER#' }),
  /** Uniqueness of an e-mail across all companies; also the login lookup. */
  email: (email: string) => ({ PK: `EMAIL#${email.toLowerCase()}`, SK: 'EMAIL' }),
  verification: (tokenHash: string) => ({ PK: `VERIFY#${tokenHash}`, SK: 'VERIFY' }),
  refreshToken: (tokenHash: string) => ({ PK: `REFRESH#${tokenHash}`, SK: 'REFRESH' }),
  refreshFamily: (familyId: string) => ({ PK: `REFRESHFAMILY#${familyId}`, SK: 'FAMILY' }),
  throttle: (bucket: string, subject: string, window: number) => ({
    PK: `THROTTLE#${bucket}#${subject}`,
    SK: `WINDOW#${window}`,
  }),
  connection: (companyId: string, connectionId: string) => ({ PK: `COMPANY#${companyId}`, SK: `CONN#${connectionId}` }),
  connectionsOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'CONN#' }),
  /** At $disconnect only the connection id is known: this item leads back to the company. */
  connectionOwner: (connectionId: string) => ({ PK: `CONNECTION#${connectionId}`, SK: 'CONNECTION' }),
} as const;

export function epochSeconds(date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}
