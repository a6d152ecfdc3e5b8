import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { INVITATION_MAIL_LIMIT, INVITATION_MAIL_WINDOW_SECONDS, INVITATION_TTL_SECONDS } from '../../shared/constants';
import type { InvitableRole, Invitation, InvitationPreview } from '../../shared/contract/team';
import { platformStatsItem } from '../admin/platform-stats';
import { type CompanyRecord, getCompany, type UserRecord } from '../auth/accounts';
import { readAddress } from '../auth/addresses';
import { hashOpaqueToken, newId, newOpaqueToken } from '../auth/opaque-tokens';
import { AppError, conflict, notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { epochSeconds, keys } from '../lib/table';
import type { Limit } from '../lib/throttle';
import { transact } from '../lib/transact';

export interface InvitationRecord {
  id: string;
  companyId: string;
  email: string;
  role: InvitableRole;
  invitedById: string;
  invitedByName: string;
  /** SHA-256 of the link's token; the token itself is only ever in the mail. */
  tokenHash: string;
  /** Epoch seconds after which the link no longer works. */
  validUntil: number;
  createdAt: string;
}

/** Kept this long after expiry, so the list can offer a resend and a late click hears "expired". */
const KEEP_EXPIRED_SECONDS = 30 * 24 * 60 * 60;

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;
export const invitationMailsPerCompany: Limit = {
  bucket: 'INVITE_COMPANY',
  limit: INVITATION_MAIL_LIMIT,
  windowSeconds: INVITATION_MAIL_WINDOW_SECONDS,
  message: (m) => `Too many invitations sent. Please try again in ${minutes(m)}.`,
};

export function toInvitation(record: InvitationRecord): Invitation {
  return {
    id: record.id,
    email: record.email,
    role: record.role,
    invitedBy: { id: record.invitedById, name: record.invitedByName },
    expiresAt: new Date(record.validUntil * 1000).toISOString(),
    createdAt: record.createdAt,
    expired: record.validUntil < epochSeconds(),
  };
}

const invitationNotFound = () => notFound('Invitation not found');
const changedMeanwhile = () => conflict('This invitation was changed at the same moment. Please try again.');

function newLink() {
  const { token, hash } = newOpaqueToken();
  const validUntil = epochSeconds() + INVITATION_TTL_SECONDS;
  return { token, hash, validUntil };
}

function tokenItem(companyId: string, invitationId: string, link: ReturnType<typeof newLink>) {
  return {
    ...keys.invitationToken(link.hash),
    entity: 'INVITATION_TOKEN',
    companyId,
    invitationId,
    validUntil: link.validUntil,
    expiresAt: link.validUntil + KEEP_EXPIRED_SECONDS,
  };
}

function invitationItem(record: InvitationRecord) {
  return {
    ...keys.invitation(record.companyId, record.id),
    entity: 'INVITATION',
    ...record,
    expiresAt: record.validUntil + KEEP_EXPIRED_SECONDS,
  };
}

export async function getInvitationRecord(companyId: string, invitationId: string): Promise<InvitationRecord> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.invitation(companyId, invitationId), ConsistentRead: true }),
  );
  if (!Item) throw invitationNotFound();
  return Item as InvitationRecord;
}

/**
 * A new pending invitation. An address with a verified account cannot be invited (an unverified one
 * gives way when the invitation is accepted); inviting an address again replaces its pending
 * invitation, so only the newest link works.
 */
export async function createInvitation(input: {
  companyId: string;
  inviter: Pick<UserRecord, 'id' | 'name'>;
  email: string;
  role: InvitableRole;
}): Promise<{ invitation: InvitationRecord; token: string }> {
  const TableName = tableName();
  const [address, { Item: pointer }] = await Promise.all([
    readAddress(input.email),
    db.send(new GetCommand({ TableName, Key: keys.invitationEmail(input.companyId, input.email), ConsistentRead: true })),
  ]);
  if (address.taken) throw conflict('This email address already belongs to a Switchboard account.', 'EMAIL_TAKEN');
  const previous = pointer
    ? await getInvitationRecord(input.companyId, pointer.invitationId as string).catch(() => undefined)
    : undefined;

  const link = newLink();
  const invitation: InvitationRecord = {
    id: newId(),
    companyId: input.companyId,
    email: input.email,
    role: input.role,
    invitedById: input.inviter.id,
    invitedByName: input.inviter.name,
    tokenHash: link.hash,
    validUntil: link.validUntil,
    createdAt: new Date().toISOString(),
  };
  const result = await transact([
    { Put: { TableName, Item: invitationItem(invitation), ConditionExpression: 'attribute_not_exists(PK)' } },
    { Put: { TableName, Item: tokenItem(input.companyId, invitation.id, link) } },
    {
      Put: {
        TableName,
        Item: {
          ...keys.invitationEmail(input.companyId, input.email),
          entity: 'INVITATION_EMAIL',
          invitationId: invitation.id,
        },
        // Two invitations of one address at the same moment: one wins, the other hears 409.
        ...(pointer
          ? {
              ConditionExpression: 'invitationId = :previous',
              ExpressionAttributeValues: { ':previous': pointer.invitationId },
            }
          : { ConditionExpression: 'attribute_not_exists(PK)' }),
      },
    },
    ...(previous
      ? [
          { Delete: { TableName, Key: keys.invitation(input.companyId, previous.id) } },
          { Delete: { TableName, Key: keys.invitationToken(previous.tokenHash) } },
        ]
      : []),
  ]);
  if (!result.written) throw changedMeanwhile();
  return { invitation, token: link.token };
}

export async function listInvitations(companyId: string): Promise<InvitationRecord[]> {
  const items = await queryPrefix<InvitationRecord>(keys.invitationsOf(companyId));
  return items.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function revokeInvitation(companyId: string, invitationId: string): Promise<InvitationRecord> {
  const invitation = await getInvitationRecord(companyId, invitationId);
  const TableName = tableName();
  const result = await transact([
    {
      Delete: {
        TableName,
        Key: keys.invitation(companyId, invitationId),
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
    { Delete: { TableName, Key: keys.invitationToken(invitation.tokenHash) } },
    {
      Delete: {
        TableName,
        Key: keys.invitationEmail(companyId, invitation.email),
        ConditionExpression: 'attribute_not_exists(PK) OR invitationId = :id',
        ExpressionAttributeValues: { ':id': invitationId },
      },
    },
  ]);
  if (!result.written) throw invitationNotFound();
  return invitation;
}

/** A new link for a pending invitation, valid for the full period again; the previous link stops working. */
export async function renewInvitation(
  companyId: string,
  invitationId: string,
): Promise<{ invitation: InvitationRecord; token: string }> {
  const current = await getInvitationRecord(companyId, invitationId);
  const link = newLink();
  const TableName = tableName();
  const result = await transact([
    {
      Update: {
        TableName,
        Key: keys.invitation(companyId, invitationId),
        UpdateExpression: 'SET tokenHash = :hash, validUntil = :until, expiresAt = :expires',
        ConditionExpression: 'tokenHash = :previous',
        ExpressionAttributeValues: {
          ':hash': link.hash,
          ':until': link.validUntil,
          ':expires': link.validUntil + KEEP_EXPIRED_SECONDS,
          ':previous': current.tokenHash,
        },
      },
    },
    { Delete: { TableName, Key: keys.invitationToken(current.tokenHash) } },
    { Put: { TableName, Item: tokenItem(companyId, invitationId, link) } },
  ]);
  if (!result.written) throw changedMeanwhile();
  return { invitation: { ...current, tokenHash: link.hash, validUntil: link.validUntil }, token: link.token };
}

const invalidLink = () =>
  new AppError(400, 'INVALID_TOKEN', 'This invitation link is invalid or has been withdrawn. Ask for a new invitation.');

/**
 * The invitation a link stands for, or why it no longer works: withdrawn or replaced (unknown),
 * already accepted (`details.used`), or past its date (`details.expired`).
 */
export async function openInvitation(
  token: string,
): Promise<{ invitation: InvitationRecord; company: CompanyRecord; tokenHash: string }> {
  const tokenHash = hashOpaqueToken(token);
  const TableName = tableName();
  const { Item: link } = await db.send(new GetCommand({ TableName, Key: keys.invitationToken(tokenHash), ConsistentRead: true }));
  if (!link) throw invalidLink();
  if (link.usedAt) {
    throw new AppError(400, 'INVALID_TOKEN', 'This invitation has already been accepted. Sign in with your email and password.', {
      used: true,
    });
  }
  const [invitation, company] = await Promise.all([
    getInvitationRecord(link.companyId, link.invitationId).catch(() => undefined),
    getCompany(link.companyId),
  ]);
  if (!invitation || !company || invitation.tokenHash !== tokenHash) throw invalidLink();
  if (Number(link.validUntil) < epochSeconds()) {
    throw new AppError(400, 'INVALID_TOKEN', `This invitation has expired. Ask ${invitation.invitedByName} to send a new one.`, {
      expired: true,
    });
  }
  return { invitation, company, tokenHash };
}

export function toPreview(invitation: InvitationRecord, company: CompanyRecord): InvitationPreview {
  return {
    companyName: company.name,
    email: invitation.email,
    role: invitation.role,
    invitedBy: { name: invitation.invitedByName },
    expiresAt: new Date(invitation.validUntil * 1000).toISOString(),
  };
}

/**
 * Turns an invitation into a user: the token is spent, the invitation removed, the e-mail claimed and
 * the user created in one transaction, so two parallel accepts make one user. The mail proved the
 * address, so the user starts verified.
 */
export async function acceptInvitation(
  token: string,
  input: { name: string; passwordHash: string },
): Promise<{ user: UserRecord; company: CompanyRecord }> {
  const { invitation, company, tokenHash } = await openInvitation(token);
  const address = await readAddress(invitation.email);
  if (address.taken) {
    // A parallel accept of this very link may have claimed the address since we opened it: that
    // visitor hears 'already accepted', as a later one would, not 'account exists'.
    await openInvitation(token);
    throw conflict('An account with this email already exists. Sign in instead.', 'EMAIL_TAKEN');
  }
  const now = new Date().toISOString();
  const user: UserRecord = {
    id: newId(),
    companyId: invitation.companyId,
    name: input.name,
    email: invitation.email,
    emailVerified: true,
    role: invitation.role,
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
            Update: {
              TableName,
              Key: keys.invitationToken(tokenHash),
              UpdateExpression: 'SET usedAt = :now, userId = :user',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(usedAt) AND validUntil >= :epoch',
              ExpressionAttributeValues: { ':now': now, ':user': user.id, ':epoch': epochSeconds() },
            },
          },
          {
            Delete: {
              TableName,
              Key: keys.invitation(invitation.companyId, invitation.id),
              ConditionExpression: 'tokenHash = :hash',
              ExpressionAttributeValues: { ':hash': tokenHash },
            },
          },
          { Delete: { TableName, Key: keys.invitationEmail(invitation.companyId, invitation.email) } },
          // The address, from nobody or from an unverified account: the invitation mail proved it.
          ...address.items({ companyId: user.companyId, userId: user.id }),
          {
            Put: {
              TableName,
              Item: { ...keys.user(user.companyId, user.id), entity: 'USER', ...user },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Update: {
              TableName,
              Key: keys.company(user.companyId),
              UpdateExpression: 'ADD userCount :one',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          // A replaced unverified account was its company's only user: company and user go with it.
          platformStatsItem(
            address.replacesAccount ? { companies: -1, users: 0, verifiedUsers: 1 } : { users: 1, verifiedUsers: 1 },
          ),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const [link, , , claim] = error.CancellationReasons ?? [];
      // The address claimed by a sign-up meanwhile; a spent link fails its own condition first.
      if (link?.Code !== 'ConditionalCheckFailed' && claim?.Code === 'ConditionalCheckFailed') {
        throw conflict('An account with this email already exists. Sign in instead.', 'EMAIL_TAKEN');
      }
      // Spent, withdrawn or expired meanwhile: say which, as a fresh look at the link would.
      await openInvitation(token);
      throw invalidLink();
    }
    throw error;
  }
  return { user, company };
}
