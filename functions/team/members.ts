import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ROLES } from '../../shared/contract/auth';
import type { MemberRef } from '../../shared/contract/conversations';
import { canGrant, canRemove, type InvitableRole } from '../../shared/contract/team';
import { platformStatsItem } from '../admin/platform-stats';
import type { Principal } from '../auth/access-tokens';
import { getActiveUser, getUser, type UserRecord } from '../auth/accounts';
import { removedMemberItem } from '../auth/removed-members';
import { endAllSessions } from '../auth/sessions';
import { conflict, forbidden, notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { publish } from '../realtime/publish';
import { listChannelRecords, updateRouting } from '../settings/channels';
import { removeMember } from '../settings/inboxes';
import { withdrawalOf } from './invitations';
import { type ConversationsMoved, moveConversationsOf, unfinishedRemovalItem } from './removal-moves';
import { tellViewChanged } from './visibility-events';

const userNotFound = () => notFound('User not found');

type MemberAction = 'remove' | 'change the role of';

/** Whom a manager may act on: not themselves, never the OWNER, and an ADMIN is removed by the OWNER only. */
export function checkMayManage(
  actor: Pick<Principal, 'userId' | 'role'>,
  user: Pick<UserRecord, 'id' | 'role'>,
  action: MemberAction,
) {
  if (user.id === actor.userId) throw forbidden(`You cannot ${action} yourself.`);
  if (user.role === 'OWNER') throw forbidden(`You cannot ${action} the owner.`);
  if (action === 'remove' && !canRemove(actor.role, user.role)) throw forbidden('Only the owner can remove an admin.');
}

/** The user another manager may act on: an active member of the company the rules above allow. */
async function manageableUser(actor: Principal, userId: string, action: MemberAction): Promise<UserRecord> {
  const user = await getActiveUser(actor.companyId, userId);
  if (!user) throw userNotFound();
  checkMayManage(actor, user, action);
  return user;
}

const changedMeanwhile = () => conflict('This member was changed at the same moment. Please try again.');

/**
 * Removes a user from the company. The user item stays (marked removed) so past messages and calls
 * keep their name; the e-mail is freed, so the person cannot sign in and may be invited again. Once
 * marked, refreshes, requests and new inbox or routing assignments refuse the user; their pending
 * invitations are withdrawn in the same write; then the user leaves every inbox, channels
 * routed to them fall back to UNASSIGNED, and every session of theirs ends (refresh tokens revoked,
 * sockets closed). Last, their conversations move to `reassignTo` (null: unassigned) while `hasTime`
 * allows; a repeated removal finishes them (docs/product.md: Removed members).
 */
export async function removeUser(
  actor: Principal,
  userId: string,
  reassignTo: string | null | undefined,
  hasTime: () => boolean,
): Promise<ConversationsMoved> {
  const { companyId } = actor;
  const stored = await getUser(companyId, userId, true);
  // Removed already, their conversations not all moved (a pass cut short): this request goes on with them.
  if (stored?.removedAt && stored.conversationsTo !== undefined && !stored.conversationsMovedAt) {
    checkMayManage(actor, stored, 'remove');
    return moveConversationsOf(companyId, await removerOf(actor), stored.id, stored.conversationsTo, hasTime);
  }
  const user = await manageableUser(actor, userId, 'remove');
  const [target, remover] = await Promise.all([reassignTo ? getActiveUser(companyId, reassignTo) : null, removerOf(actor)]);
  if (target === undefined || target?.id === userId) throw userNotFound();
  const conversationsTo: MemberRef | null = target && { id: target.id, name: target.name };
  const removedAt = new Date().toISOString();
  const TableName = tableName();
  const withdrawal = await withdrawalOf(companyId, userId, () => false);
  // The role as the actor may remove it: promoted to ADMIN meanwhile, an ADMIN's removal fails.
  const removable = ROLES.filter((r) => canRemove(actor.role, r));
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: keys.user(companyId, userId),
              // Where their conversations go is kept with the removal, so any later pass moves them alike.
              UpdateExpression: 'SET removedAt = :now, removedBy = :actor, conversationsTo = :to',
              ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(removedAt) AND #role IN (${removable.map((_, i) => `:removable${i}`).join(', ')})`,
              ExpressionAttributeNames: { '#role': 'role' },
              ExpressionAttributeValues: {
                ':now': removedAt,
                ':actor': actor.userId,
                ':to': conversationsTo,
                ...Object.fromEntries(removable.map((r, i) => [`:removable${i}`, r])),
              },
            },
          },
          {
            Delete: {
              TableName,
              Key: keys.email(user.email),
              ConditionExpression: 'userId = :user',
              ExpressionAttributeValues: { ':user': userId },
            },
          },
          {
            Update: {
              TableName,
              Key: keys.company(companyId),
              UpdateExpression: 'ADD userCount :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
          platformStatsItem({ users: -1, verifiedUsers: user.emailVerified ? -1 : 0 }),
          // What their next sign-in is told (docs/product.md: Removed members).
          { Put: { TableName, Item: removedMemberItem(user) } },
          ...withdrawal.items,
          // Found by the scheduled sweep should no pass finish the move (the remover's tab closed).
          { Put: { TableName, Item: unfinishedRemovalItem({ companyId, userId, removedBy: remover, removedAt }) } },
          // The member their conversations go to is still one (removed at the same moment: refused).
          ...(conversationsTo
            ? [
                {
                  ConditionCheck: {
                    TableName,
                    Key: keys.user(companyId, conversationsTo.id),
                    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt)',
                  },
                },
              ]
            : []),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      if (conversationsTo && !(await getActiveUser(companyId, conversationsTo.id))) throw userNotFound();
      // Say why as a fresh look would: gone, now an ADMIN, or else changed at the same moment.
      await manageableUser(actor, userId, 'remove');
      throw changedMeanwhile();
    }
    throw error;
  }

  const [memberships, channels] = await Promise.all([
    queryPrefix<{ inboxId: string }>(keys.userInboxesOf(companyId, userId)),
    listChannelRecords(companyId),
  ]);
  await Promise.all([
    ...memberships.map((m) => removeMember(companyId, m.inboxId, userId).catch(ignoreNotFound)),
    ...channels
      .filter((c) => c.routingType === 'USER' && c.routingTargetId === userId)
      .map((c) => updateRouting(companyId, c.id, 'UNASSIGNED', null).catch(ignoreNotFound)),
    endAllSessions(companyId, userId),
    withdrawal.sweep().then((withdrawn) => tellWithdrawn(companyId, withdrawn)),
    // Every open Team page and assignee picker stops offering them.
    publish(companyId, { type: 'member_removed', data: { userId } }),
  ]);
  return moveConversationsOf(companyId, remover, user.id, conversationsTo, hasTime);
}

/** The manager removing someone, as the events of the moves name them. */
async function removerOf(actor: Principal): Promise<MemberRef> {
  const remover = await getActiveUser(actor.companyId, actor.userId);
  if (!remover) throw userNotFound();
  return { id: remover.id, name: remover.name };
}

/** Deleted meanwhile by someone else: the outcome the removal wanted anyway. */
function ignoreNotFound(error: unknown) {
  if ((error as { status?: number }).status !== 404) throw error;
}

/** A demotion withdraws, in the same write, the pending invitations the new role cannot give. */
export async function changeRole(actor: Principal, userId: string, role: InvitableRole): Promise<void> {
  await manageableUser(actor, userId, 'change the role of');
  const TableName = tableName();
  const withdrawal = await withdrawalOf(actor.companyId, userId, (invited) => canGrant(role, invited));
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: keys.user(actor.companyId, userId),
              UpdateExpression: 'SET #role = :role',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt) AND #role <> :owner',
              ExpressionAttributeNames: { '#role': 'role' },
              ExpressionAttributeValues: { ':role': role, ':owner': 'OWNER' },
            },
          },
          ...withdrawal.items,
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw userNotFound();
    throw error;
  }
  await Promise.all([
    tellWithdrawn(actor.companyId, await withdrawal.sweep()),
    // An agent made admin sees the whole company, an admin made agent only their inboxes: their tabs read again.
    tellViewChanged(actor.companyId, [userId], 'ROLE'),
  ]);
}

/** Invitations withdrawn with their sender's removal or demotion leave every open Team page (docs/product.md §2.16). */
async function tellWithdrawn(companyId: string, invitationIds: string[]): Promise<void> {
  await Promise.all(
    invitationIds.map((invitationId) =>
      publish(companyId, { type: 'invitation_changed', data: { invitationId, invitation: null } }),
    ),
  );
}
