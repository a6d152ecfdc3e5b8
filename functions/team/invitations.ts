import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { INVITATION_MAIL_LIMIT, INVITATION_MAIL_WINDOW_SECONDS, INVITATION_TTL_SECONDS } from '../../shared/constants';
import { ROLES, type Role } from '../../shared/contract/auth';
import { canGrant, type InvitableRole, type Invitation, type InvitationPreview } from '../../shared/contract/team';
import { platformStatsItem } from '../admin/platform-stats';
import { type CompanyRecord, getActiveUser, getCompany, type UserRecord } from '../auth/accounts';
import { readAddress } from '../auth/addresses';
import { hashOpaqueToken, newId, newOpaqueToken } from '../auth/opaque-tokens';
import { AppError, conflict, forbidden, notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { epochSeconds, keys } from '../lib/table';
import type { Limit } from '../lib/throttle';
import { named, type TransactItem, transact } from '../lib/transact';

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
 * The condition that the inviter is still in the company with a role that grants `role`: checked in the
 * write that creates an invitation and in the one that accepts it, so a removal or a demotion at the
 * same moment cannot slip between the check and the write.
 */
function inviterMayGrant(companyId: string, inviterId: string, role: InvitableRole): TransactItem {
  const granting = ROLES.filter((r) => canGrant(r, role));
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.user(companyId, inviterId),
      ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(removedAt) AND #role IN (${granting.map((_, i) => `:granting${i}`).join(', ')})`,
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: Object.fromEntries(granting.map((r, i) => [`:granting${i}`, r])),
    },
  };
}

/** Only the OWNER grants ADMIN; the route lets only the OWNER and ADMINs invite at all. */
export function checkMayInvite(inviterRole: Role, role: InvitableRole): void {
  if (!canGrant(inviterRole, role)) throw forbidden('Only the owner can invite an admin.');
}

/**
 * A new pending invitation. Any address may be invited, including one that has an account: the
 * answer is the same, so inviting tells no company who has an account; the link's holder
 * hears it when opening the link. An unverified account gives way when the invitation is accepted.
 * Inviting an address again replaces its pending invitation, so only the newest link works.
 */
export async function createInvitation(input: {
  companyId: string;
  inviter: Pick<UserRecord, 'id' | 'name' | 'role'>;
  email: string;
  role: InvitableRole;
}): Promise<{ invitation: InvitationRecord; token: string }> {
  checkMayInvite(input.inviter.role, input.role);
  const TableName = tableName();
  const { Item: pointer } = await db.send(
    new GetCommand({ TableName, Key: keys.invitationEmail(input.companyId, input.email), ConsistentRead: true }),
  );
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
    inviterMayGrant(input.companyId, input.inviter.id, input.role),
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
  // An invitation dies with its sender's right to send it: removed or demoted since, it is
  // withdrawn, whether or not the removal got round to deleting it.
  const inviter = await getActiveUser(invitation.companyId, invitation.invitedById);
  if (!inviter || !canGrant(inviter.role, invitation.role)) throw invalidLink();
  if (Number(link.validUntil) < epochSeconds()) {
    throw new AppError(400, 'INVALID_TOKEN', `This invitation has expired. Ask ${invitation.invitedByName} to send a new one.`, {
      expired: true,
    });
  }
  return { invitation, company, tokenHash };
}

const addressTaken = () => conflict('This email address already has a Switchboard account. Sign in instead.', 'EMAIL_TAKEN');

/**
 * What the accept page shows. An address that has an account is told so here, to whoever holds the
 * mailed link (so the address's owner), rather than to the company that invited it.
 */
export async function openPreview(token: string): Promise<{ invitation: InvitationRecord; company: CompanyRecord }> {
  const opened = await openInvitation(token);
  if ((await readAddress(opened.invitation.email)).taken) throw addressTaken();
  return opened;
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
): Promise<{ user: UserRecord; company: CompanyRecord; invitationId: string }> {
  const { invitation, company, tokenHash } = await openInvitation(token);
  const address = await readAddress(invitation.email);
  if (address.taken) {
    // A parallel accept of this very link may have claimed the address since we opened it: that
    // visitor hears 'already accepted', as a later one would, not 'account exists'.
    await openInvitation(token);
    throw addressTaken();
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
  const result = await transact([
    named('link', {
      Update: {
        TableName,
        Key: keys.invitationToken(tokenHash),
        UpdateExpression: 'SET usedAt = :now, userId = :user',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(usedAt) AND validUntil >= :epoch',
        ExpressionAttributeValues: { ':now': now, ':user': user.id, ':epoch': epochSeconds() },
      },
    }),
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
    platformStatsItem(address.replacesAccount ? { companies: -1, users: 0, verifiedUsers: 1 } : { users: 1, verifiedUsers: 1 }),
    inviterMayGrant(invitation.companyId, invitation.invitedById, invitation.role),
  ]);
  if (!result.written) {
    // The address claimed by a sign-up meanwhile; a spent link fails its own condition first.
    if (!result.failed('link') && result.failed('address')) throw addressTaken();
    // Spent, withdrawn or expired meanwhile: say which, as a fresh look at the link would.
    await openInvitation(token);
    throw invalidLink();
  }
  return { user, company, invitationId: invitation.id };
}

/** Withdrawn inside the removal's or the role change's own write; more wait for the sweep after it. */
const WITHDRAW_IN_WRITE = 40;

/**
 * The pending invitations of an inviter who may no longer grant their role (removed: nothing;
 * demoted: what the new role cannot give), and the transaction items that withdraw the first of them
 * in the same write as the removal or the role change. The items delete the invitation and
 * its link without conditions, so they never cancel that write; the address pointers go in the sweep.
 */
export async function withdrawalOf(
  companyId: string,
  inviterId: string,
  stillGrants: (role: InvitableRole) => boolean,
): Promise<{ items: TransactItem[]; sweep: () => Promise<string[]> }> {
  const TableName = tableName();
  const theirs = async () =>
    (await listInvitations(companyId)).filter((i) => i.invitedById === inviterId && !stillGrants(i.role));
  const now = (await theirs()).slice(0, WITHDRAW_IN_WRITE);
  return {
    items: now.flatMap((i) => [
      { Delete: { TableName, Key: keys.invitation(companyId, i.id) } },
      { Delete: { TableName, Key: keys.invitationToken(i.tokenHash) } },
    ]),
    // Once the write is done no new invitation of theirs can be made (createInvitation checks the
    // inviter in its own write), so a fresh look finds every one that is left. Answers the ids withdrawn.
    sweep: async () => {
      const left = await theirs();
      await Promise.all([
        ...now.map((i) => dropAddressPointer(companyId, i.email, i.id)),
        ...left.map((i) => revokeInvitation(companyId, i.id).catch(ignoreGone)),
      ]);
      return [...now, ...left].map((i) => i.id);
    },
  };
}

/** The address's pointer, unless it points at a newer invitation of that address by now. */
async function dropAddressPointer(companyId: string, email: string, invitationId: string): Promise<void> {
  await db
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.invitationEmail(companyId, email),
        ConditionExpression: 'invitationId = :id',
        ExpressionAttributeValues: { ':id': invitationId },
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}

/** Withdrawn meanwhile by someone else: the outcome wanted anyway. */
function ignoreGone(error: unknown) {
  if ((error as { status?: number }).status !== 404) throw error;
}
