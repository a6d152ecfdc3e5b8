import type { Conversation, MemberRef } from '../../shared/contract/conversations';
import { getActiveUser } from '../auth/accounts';
import { notFound, unauthorized } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { queryPages } from '../lib/query';
import { GSI3, keys } from '../lib/table';
import { named, transact } from '../lib/transact';
import { publishChange, publishToViewers } from './audience';
import { assigneeCountChanges, companyCountersItem } from './company-counters';
import { toConversationView, toConversationViews } from './conversation-views';
import { conversationChangeItem, readAgainOrThrow, untilCommitted } from './message-writes';
import { type ConversationRecord, hasAssigneeEntry, toSharedConversation } from './records';
import { conversationNotFound, findConversationRecord } from './thread';
import { assigneeViewer, findVisibleConversation, mayBeAssignedBy, type Reader, requireAssignable } from './visible-conversation';

/**
 * Assignment: who owns a conversation. A text to a USER-routed number starts it assigned
 * to that member (inbound-sms.ts); afterwards any member who sees it may assign it to an active member
 * who sees it without the assignment (docs/product.md: Who sees what), or unassign it
 * (PATCH /api/v1/conversations/{id}/assignee).
 */

export const userNotFound = () => notFound('User not found');

/**
 * Assigns the conversation to `assigneeId` (null: unassigns it) on behalf of `actorId`. The assignee,
 * the index entries and the per-assignee counters change in one transaction, conditioned on the
 * status, activity time and assignee read (so a parallel status change, text or assignment is never
 * lost: it reads again) and on the new assignee still being an active member (one removed meanwhile
 * is refused like one that never was). The assignee it already has answers the conversation as it is,
 * with no event. A member who would not see it without the assignment is refused (409): an assignment
 * cannot be what lets its assignee see a conversation.
 */
export async function assignConversation(
  actorReader: Reader,
  conversationId: string,
  assigneeId: string | null,
): Promise<Conversation> {
  const { companyId, userId: actorId } = actorReader;
  const [found, actor, assignee] = await Promise.all([
    findVisibleConversation(actorReader, conversationId),
    getActiveUser(companyId, actorId),
    assigneeId === null ? null : getActiveUser(companyId, assigneeId),
  ]);
  // Another company's conversation is not found, whoever the user named.
  if (!found) throw conversationNotFound();
  if (!actor) throw unauthorized('This account no longer exists.');
  if (assignee === undefined) throw userNotFound();
  if (assignee && assignee.id !== found.assignee?.id) await requireAssignable(found, assignee);
  const assignedTo: MemberRef | null = assignee && { id: assignee.id, name: assignee.name };
  const moved = await moveConversation(companyId, { id: actor.id, name: actor.name }, found, assignedTo, actorId);
  if (!moved) throw conversationNotFound();
  return moved;
}

/**
 * The one write of an assignment, for the route and for a member's removal alike: the same counters
 * and the same `conversation_assigned` event. `onlyFrom` (a removal) moves the conversation only
 * while it is still assigned to that member; one reassigned meanwhile stays as it is (undefined).
 * The answer is the conversation as `viewerId` sees it (their unread count).
 */
async function moveConversation(
  companyId: string,
  actor: MemberRef,
  found: ConversationRecord,
  assignedTo: MemberRef | null,
  viewerId: string,
  onlyFrom?: string,
): Promise<Conversation | undefined> {
  const conversationId = found.id;
  let firstRead: ConversationRecord | undefined = found;
  const moved = await untilCommitted<Conversation | null>(async () => {
    // Read again on every later attempt: the transaction holds only against the latest state.
    const record = firstRead ?? (await findConversationRecord(companyId, conversationId));
    firstRead = undefined;
    if (!record) {
      if (onlyFrom === undefined) throw conversationNotFound();
      return null;
    }
    if (onlyFrom !== undefined && record.assignee?.id !== onlyFrom) return null;
    if ((record.assignee?.id ?? null) === (assignedTo?.id ?? null)) return toConversationView(record, viewerId);

    const changed: ConversationRecord = { ...record, assignee: assignedTo };
    if (!(await writeAssignee(record, changed))) return undefined;
    // The answer is the caller's (their unread count); the event goes to those who see it, without one,
    // and a former assignee who no longer sees it is told their view changed.
    const conversation = await toConversationView(changed, viewerId);
    await publishChange(
      changed,
      {
        type: 'conversation_assigned',
        data: { conversationId, assignee: assignedTo, assignedBy: actor, conversation: toSharedConversation(conversation) },
      },
      record.assignee ? [record.assignee.id] : [],
    );
    return conversation;
  });
  return moved ?? undefined;
}

/**
 * A removed member's conversations (docs/product.md: Removed members), open and closed, moved to
 * `to` (null: unassigned) by `actor`, a page of the member's index partitions at a time, until
 * there are none or `hasTime` says stop. Each is an ordinary assignment (counters, event). Answers
 * how many moved and whether none are left; a later pass picks up what an earlier one left, since a
 * moved conversation leaves the partition and one moved already is skipped. A target removed
 * meanwhile is refused like any removed member: those conversations are unassigned instead. So is a
 * conversation the target would not see without the assignment (docs/product.md: Removed members):
 * it goes to Unassigned, where its inbox's members and the managers find it.
 */
export async function moveAssignedConversations(
  companyId: string,
  actor: MemberRef,
  fromId: string,
  to: MemberRef | null,
  hasTime: () => boolean,
): Promise<{ moved: number; complete: boolean }> {
  let moved = 0;
  const target = await assigneeViewer(companyId, to);
  const targetOf = (record: ConversationRecord) => (target && mayBeAssignedBy(target, record) ? to : null);
  for (const status of ['OPEN', 'CLOSED'] as const) {
    const { GSI3PK } = keys.conversationByAssignee(companyId, fromId, status, '', '');
    const pages = queryPages<{ id: string }>({
      IndexName: GSI3.indexName,
      KeyConditionExpression: '#pk = :pk',
      ProjectionExpression: '#id',
      ExpressionAttributeNames: { '#pk': GSI3.partitionKey, '#id': 'id' },
      ExpressionAttributeValues: { ':pk': GSI3PK },
      Limit: MOVE_BATCH,
    });
    for await (const page of pages) {
      if (!hasTime()) return { moved, complete: false };
      if (page.length > 0)
        moved += await moveBatch(
          companyId,
          actor,
          page.map((item) => item.id),
          fromId,
          targetOf,
        );
    }
  }
  return { moved, complete: true };
}

/**
 * Conversations moved in one transaction: an update each, their counters summed into one shard's
 * update, and the target's check (within DynamoDB's 100 items). Hundreds take a transaction per 25,
 * not one each.
 */
const MOVE_BATCH = 25;

/** Moves the batch's conversations still assigned to `fromId`, each to `targetOf` it; answers how many moved. */
async function moveBatch(
  companyId: string,
  actor: MemberRef,
  ids: string[],
  fromId: string,
  targetOf: (record: ConversationRecord) => MemberRef | null,
) {
  const read = await batchGetAll<ConversationRecord>(
    ids.map((id) => keys.conversation(companyId, id)),
    { ConsistentRead: true },
  );
  // Reassigned by someone meanwhile, or the index a moment behind: left as it is.
  const records = read.filter((r) => r.assignee?.id === fromId);
  if (records.length === 0) return 0;
  const changed = records.map((r): ConversationRecord => ({ ...r, assignee: targetOf(r) }));
  const to = changed.find((c) => c.assignee)?.assignee ?? null;
  const counters: Record<string, number> = {};
  records.forEach((r, i) => {
    for (const [name, n] of Object.entries(assigneeCountChanges(r, changed[i]))) counters[name] = (counters[name] ?? 0) + n;
  });
  const result = await transact([
    ...records.map((r, i) =>
      conversationChangeItem(r, changed[i] as ConversationRecord, { assignee: changed[i]?.assignee ?? null }),
    ),
    ...(to ? [assigneeActiveCheck(companyId, to.id)] : []),
    companyCountersItem(companyId, {}, counters),
  ]);
  if (!result.written) {
    // A text, status change or assignment met one of them, or the target left: one at a time, as the route does.
    let moved = 0;
    for (const record of records) if (await moveOne(companyId, actor, record, fromId, targetOf(record))) moved += 1;
    return moved;
  }
  const views = await toConversationViews(companyId, changed);
  await Promise.all(
    views.map((conversation, i) =>
      publishToViewers(changed[i] as ConversationRecord, {
        type: 'conversation_assigned',
        data: {
          conversationId: conversation.id,
          assignee: conversation.assignee,
          assignedBy: actor,
          conversation: toSharedConversation(conversation),
        },
      }),
    ),
  );
  return records.length;
}

async function moveOne(companyId: string, actor: MemberRef, record: ConversationRecord, fromId: string, to: MemberRef | null) {
  try {
    return (await moveConversation(companyId, actor, record, to, actor.id, fromId)) !== undefined;
  } catch (error) {
    // The target was removed meanwhile: this one goes to Unassigned rather than stay with nobody.
    if (to && (error as { status?: number }).status === 404) {
      return (await moveConversation(companyId, actor, record, null, actor.id, fromId)) !== undefined;
    }
    throw error;
  }
}

/** A removed member keeps their item (for history) but is no longer assignable. */
const assigneeActiveCheck = (companyId: string, assigneeId: string) =>
  named('assignee', {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.user(companyId, assigneeId),
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt)',
    },
  });

/** True when written; false when the conversation changed since it was read (read it again). Throws 404 for a member gone meanwhile. */
async function writeAssignee(read: ConversationRecord, changed: ConversationRecord): Promise<boolean> {
  const assigneeId = changed.assignee?.id;
  const result = await transact([
    // The counters count from the assignee read.
    conversationChangeItem(read, changed, { assignee: changed.assignee ?? null }),
    ...(assigneeId ? [assigneeActiveCheck(read.companyId, assigneeId)] : []),
    companyCountersItem(read.companyId, {}, assigneeCountChanges(hasAssigneeEntry(read) ? read : undefined, changed)),
  ]);
  if (result.written) return true;
  if (result.failed('assignee')) throw userNotFound();
  return readAgainOrThrow(result);
}
