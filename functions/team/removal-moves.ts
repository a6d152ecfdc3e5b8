import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberRef } from '../../shared/contract/conversations';
import { getCompany, getUser } from '../auth/accounts';
import { moveAssignedConversations } from '../conversations/assignment';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';

/**
 * Moving a removed member's conversations (docs/product.md: Removed members): a pass of the removal
 * request (members.ts), or the scheduled sweep of removals nobody finished (removal-sweep.ts). Apart
 * from members.ts so the sweep reaches neither sessions nor invitations.
 */

export interface ConversationsMoved {
  moved: number;
  complete: boolean;
}

/**
 * A removal not finished yet, in the well-known partition the scheduled sweep reads
 * (keys.unfinishedRemoval): whose, and who removed them (the moves are theirs, whoever finishes them).
 */
export interface UnfinishedRemovalRecord {
  companyId: string;
  userId: string;
  removedBy: MemberRef;
  removedAt: string;
}

export function unfinishedRemovalItem(record: UnfinishedRemovalRecord) {
  return { ...keys.unfinishedRemoval(record.companyId, record.userId), entity: 'UNFINISHED_REMOVAL', ...record };
}

/**
 * Moves what is still assigned to a removed member, as far as `hasTime` allows; once none are left
 * the removal is marked done (and leaves the sweep's partition), and a later DELETE answers 404 as
 * for any removed member.
 */
export async function moveConversationsOf(
  companyId: string,
  remover: MemberRef,
  userId: string,
  to: MemberRef | null,
  hasTime: () => boolean,
): Promise<ConversationsMoved> {
  const result = await moveAssignedConversations(companyId, remover, userId, to, hasTime);
  if (result.complete) {
    const TableName = tableName();
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: keys.user(companyId, userId),
              UpdateExpression: 'SET conversationsMovedAt = :now',
              ExpressionAttributeValues: { ':now': new Date().toISOString() },
            },
          },
          { Delete: { TableName, Key: keys.unfinishedRemoval(companyId, userId) } },
        ],
      }),
    );
  }
  return result;
}

/**
 * Goes on with a removal nobody finished (the scheduled sweep, docs/product.md: Removed members): the
 * same moves as a pass, by the member who removed them, to the member they chose then. A removal
 * finished meanwhile, or whose company is gone, only leaves the partition.
 */
export async function finishRemoval(marker: UnfinishedRemovalRecord, hasTime: () => boolean): Promise<ConversationsMoved> {
  const { companyId, userId } = marker;
  const [stored, company] = await Promise.all([getUser(companyId, userId, true), getCompany(companyId)]);
  // A company being deleted: its worker deletes the conversations; nobody is left to tell.
  const deleting = !company || (company as { status?: 'DELETING' }).status === 'DELETING';
  if (!stored?.removedAt || stored.conversationsMovedAt || deleting) {
    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.unfinishedRemoval(companyId, userId) }));
    return { moved: 0, complete: true };
  }
  return moveConversationsOf(companyId, marker.removedBy, userId, stored.conversationsTo ?? null, hasTime);
}
