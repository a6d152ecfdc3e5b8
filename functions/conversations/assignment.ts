import type { Conversation, MemberRef } from '../../shared/contract/conversations';
import { getActiveUser } from '../auth/accounts';
import { notFound, unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { keys } from '../lib/table';
import { named, transact } from '../lib/transact';
import { publish } from '../realtime/publish';
import { assigneeCountChanges, companyCountersItem } from './company-counters';
import { toConversationView } from './conversation-views';
import { conversationChangeItem, readAgainOrThrow, untilCommitted } from './message-writes';
import { type ConversationRecord, hasAssigneeEntry, toSharedConversation } from './records';
import { conversationNotFound, findConversationRecord } from './thread';

/**
 * Assignment: who owns a conversation. A text to a USER-routed number starts it assigned
 * to that member (inbound-sms.ts); afterwards any member may assign it to any active member of the
 * company, or unassign it (PATCH /api/v1/conversations/{id}/assignee).
 */

export const userNotFound = () => notFound('User not found');

/**
 * Assigns the conversation to `assigneeId` (null: unassigns it) on behalf of `actorId`. The assignee,
 * the index entries and the per-assignee counters change in one transaction, conditioned on the
 * status, activity time and assignee read (so a parallel status change, text or assignment is never
 * lost: it reads again) and on the new assignee still being an active member (one removed meanwhile
 * is refused like one that never was). The assignee it already has answers the conversation as it is,
 * with no event.
 */
export async function assignConversation(
  companyId: string,
  actorId: string,
  conversationId: string,
  assigneeId: string | null,
): Promise<Conversation> {
  const [found, actor, assignee] = await Promise.all([
    findConversationRecord(companyId, conversationId),
    getActiveUser(companyId, actorId),
    assigneeId === null ? null : getActiveUser(companyId, assigneeId),
  ]);
  // Another company's conversation is not found, whoever the user named.
  if (!found) throw conversationNotFound();
  if (!actor) throw unauthorized('This account no longer exists.');
  if (assignee === undefined) throw userNotFound();
  const assignedTo: MemberRef | null = assignee && { id: assignee.id, name: assignee.name };

  let firstRead: ConversationRecord | undefined = found;
  return untilCommitted(async () => {
    // Read again on every later attempt: the transaction holds only against the latest state.
    const record = firstRead ?? (await findConversationRecord(companyId, conversationId));
    firstRead = undefined;
    if (!record) throw conversationNotFound();
    if ((record.assignee?.id ?? null) === assigneeId) return toConversationView(record, actorId);

    const changed: ConversationRecord = { ...record, assignee: assignedTo };
    if (!(await writeAssignee(record, changed))) return undefined;
    // The answer is the caller's (their unread count); the event goes to every member, without one.
    const conversation = await toConversationView(changed, actorId);
    await publish(companyId, {
      type: 'conversation_assigned',
      data: {
        conversationId,
        assignee: assignedTo,
        assignedBy: { id: actor.id, name: actor.name },
        conversation: toSharedConversation(conversation),
      },
    });
    return conversation;
  });
}

/** True when written; false when the conversation changed since it was read (read it again). Throws 404 for a member gone meanwhile. */
async function writeAssignee(read: ConversationRecord, changed: ConversationRecord): Promise<boolean> {
  const assigneeId = changed.assignee?.id;
  const result = await transact([
    // The counters count from the assignee read.
    conversationChangeItem(read, changed, { assignee: changed.assignee ?? null }),
    ...(assigneeId
      ? [
          named('assignee', {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.user(read.companyId, assigneeId),
              // A removed member keeps their item (for history) but is no longer assignable.
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt)',
            },
          }),
        ]
      : []),
    companyCountersItem(read.companyId, {}, assigneeCountChanges(hasAssigneeEntry(read) ? read : undefined, changed)),
  ]);
  if (result.written) return true;
  if (result.failed('assignee')) throw userNotFound();
  return readAgainOrThrow(result);
}
