import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Company, Role, User } from '../../shared/contract/auth';
import { platformAdminEmails, tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';

/** The stored user item; `passwordHash` never leaves this module's callers. */
export interface UserRecord {
  id: string;
  companyId: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: Role;
  avatarUrl: string | null;
  lastActiveAt: string | null;
  passwordHash: string;
  createdAt: string;
  /** Hash of the one verification token that may verify this user; absent once verified. */
  verificationHash?: string;
  /** Hash of the one password-reset token that may set this user's password (functions/auth/password-reset.ts). */
  passwordResetHash?: string;
  /** Set when an OWNER or ADMIN removed the user: the item stays so history keeps their name. */
  removedAt?: string;
  /**
   * Set with removedAt: the member the removed one's conversations go to (null: unassigned), and
   * once none are left assigned to them, when (functions/team/members.ts).
   */
  conversationsTo?: { id: string; name: string } | null;
  conversationsMovedAt?: string;
}

export interface CompanyRecord {
  id: string;
  name: string;
  ownerId: string;
  createdAt: string;
  /** Set once its deletion was asked for (functions/company/deletion.ts): it is gone for everyone. */
  status?: 'DELETING';
}

export function toUser(record: UserRecord): User {
  return {
    id: record.id,
    companyId: record.companyId,
    name: record.name,
    email: record.email,
    emailVerified: record.emailVerified,
    role: record.role,
    avatarUrl: record.avatarUrl ?? null,
    lastActiveAt: record.lastActiveAt ?? null,
    isPlatformAdmin: isNamedPlatformAdmin(record),
  };
}

/** Platform administrators are whoever the operator names now (PLATFORM_ADMIN_EMAILS), read at every use. */
export const isNamedPlatformAdmin = (record: Pick<UserRecord, 'email'>) => platformAdminEmails().has(record.email.toLowerCase());

export function toCompany(record: CompanyRecord): Company {
  return { id: record.id, name: record.name };
}

export async function findUserByEmail(email: string): Promise<UserRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.email(email) }));
  if (!Item) return undefined;
  return getUser(Item.companyId, Item.userId);
}

export async function getUser(companyId: string, userId: string, consistent = false): Promise<UserRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId), ConsistentRead: consistent || undefined }),
  );
  return Item as UserRecord | undefined;
}

/** The user if they still belong to the company (not removed). */
export async function getActiveUser(companyId: string, userId: string): Promise<UserRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId), ConsistentRead: true }),
  );
  const user = Item as UserRecord | undefined;
  return user && !user.removedAt ? user : undefined;
}

export async function getCompany(companyId: string): Promise<CompanyRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.company(companyId) }));
  return Item as CompanyRecord | undefined;
}

export async function touchLastActive(user: UserRecord): Promise<UserRecord> {
  const lastActiveAt = new Date().toISOString();
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(user.companyId, user.id),
      UpdateExpression: 'SET lastActiveAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': lastActiveAt },
    }),
  );
  return { ...user, lastActiveAt };
}

const MINUTE_MS = 60_000;

/**
 * Records that the user is using the app at `now` (an open tab's heartbeat, the tab closing). Once a
 * minute at most: the write is conditioned on lastActiveAt being from an earlier minute, so however
 * many tabs beat, the user item takes one write a minute. `everyMinute: false` records the moment
 * itself (leaving), still never moving lastActiveAt back. A removed user is left alone. True when written.
 */
export async function markActive(
  companyId: string,
  userId: string,
  options: { now?: Date; everyMinute?: boolean } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const since = options.everyMinute === false ? now.getTime() : Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(companyId, userId),
        UpdateExpression: 'SET lastActiveAt = :now',
        // A user who never signed in has lastActiveAt null (type NULL), which no string compares with.
        ConditionExpression:
          'attribute_exists(PK) AND attribute_not_exists(removedAt) AND ' +
          '(attribute_not_exists(lastActiveAt) OR attribute_type(lastActiveAt, :null) OR lastActiveAt < :since)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':since': new Date(since).toISOString(), ':null': 'NULL' },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
