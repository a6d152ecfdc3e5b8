import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Company, Role, User } from '../../shared/contract/auth';
import { conflict } from '../lib/app-error';
import { platformAdminEmails, tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { newId } from './opaque-tokens';

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
  /** Set when an OWNER or ADMIN removed the user: the item stays so history keeps their name. */
  removedAt?: string;
}

export interface CompanyRecord {
  id: string;
  name: string;
  ownerId: string;
  createdAt: string;
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
    isPlatformAdmin: platformAdminEmails().has(record.email.toLowerCase()),
  };
}

export function toCompany(record: CompanyRecord): Company {
  return { id: record.id, name: record.name };
}

/**
 * Registration: the company, its OWNER, the e-mail uniqueness item and the first verification token
 * are written in one transaction, so a half-made account can never exist.
 */
export async function createCompanyWithOwner(input: {
  companyName: string;
  name: string;
  email: string;
  passwordHash: string;
  verification: { hash: string; validUntil: number; expiresAt: number };
}): Promise<{ user: UserRecord; company: CompanyRecord }> {
  const now = new Date().toISOString();
  const companyId = newId();
  const userId = newId();
  const company: CompanyRecord = { id: companyId, name: input.companyName, ownerId: userId, createdAt: now };
  const user: UserRecord = {
    id: userId,
    companyId,
    name: input.name,
    email: input.email,
    emailVerified: false,
    role: 'OWNER',
    avatarUrl: null,
    lastActiveAt: null,
    passwordHash: input.passwordHash,
    createdAt: now,
  };
  const TableName = tableName();
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: { ...keys.email(input.email), entity: 'EMAIL', companyId, userId },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName,
              Item: {
                ...keys.company(companyId),
                ...keys.companyListing(now, companyId),
                entity: 'COMPANY',
                ...company,
                userCount: 1,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName,
              Item: { ...keys.user(companyId, userId), entity: 'USER', ...user },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName,
              Item: {
                ...keys.verification(input.verification.hash),
                entity: 'VERIFICATION',
                companyId,
                userId,
                validUntil: input.verification.validUntil,
                expiresAt: input.verification.expiresAt,
              },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      throw conflict('An account with this email already exists. Sign in instead.', 'EMAIL_TAKEN');
    }
    throw error;
  }
  return { user, company };
}

export async function findUserByEmail(email: string): Promise<UserRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.email(email) }));
  if (!Item) return undefined;
  return getUser(Item.companyId, Item.userId);
}

export async function getUser(companyId: string, userId: string): Promise<UserRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId) }));
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
