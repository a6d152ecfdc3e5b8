import type { Conversation, ConversationStatus } from '../../shared/contract/conversations';
import { transact } from '../lib/transact';
import { publishToViewers } from './audience';
import { assigneeCountChanges, companyCountersItem } from './company-counters';
import { toConversationView } from './conversation-views';
import { conversationChangeItem, readAgainOrThrow, untilCommitted } from './message-writes';
import { type ConversationRecord, hasAssigneeEntry, toSharedConversation } from './records';
import { conversationNotFound, findConversationRecord } from './thread';
import { findVisibleConversation, type Reader } from './visible-conversation';

/**
 * Marks a conversation OPEN or CLOSED (PATCH /api/v1/conversations/{id}/status). The status, its
 * index entries and one count moved between the company's (and its assignee's) open and closed
 * counters change in one transaction, conditioned on the status, activity time and assignee it read:
 * when a parallel change (another agent, an inbound message, an assignment) got there first, it reads
 * again, so two parallel closes move the counters once. The same status again answers the conversation as it is and changes nothing.
 */
export async function changeConversationStatus(
  reader: Reader,
  conversationId: string,
  status: ConversationStatus,
): Promise<Conversation> {
  const { companyId, userId: readerId } = reader;
  // The first read decides whether the reader may see it; later attempts only read it again.
  let firstRead = true;
  return untilCommitted(async () => {
    const record = firstRead
      ? await findVisibleConversation(reader, conversationId)
      : await findConversationRecord(companyId, conversationId);
    firstRead = false;
    if (!record) throw conversationNotFound();
    if (record.status === status) return toConversationView(record, readerId);

    const changed: ConversationRecord = { ...record, status };
    if (!(await writeStatus(record, changed))) return undefined;
    // The answer is the reader's (their unread count); the event is the company's.
    const conversation = await toConversationView(changed, readerId);
    await publishToViewers(changed, {
      type: 'conversation_status_updated',
      data: { conversationId, status, conversation: toSharedConversation(conversation) },
    });
    return conversation;
  });
}

/** True when written; false when the conversation changed since it was read (read it again). */
async function writeStatus(read: ConversationRecord, changed: ConversationRecord): Promise<boolean> {
  const counter = (status: ConversationStatus) => (status === 'OPEN' ? 'openConversations' : 'closedConversations');
  // The assignee's counts move with the status (and a conversation stored before assignment gets its entry).
  const result = await transact([
    conversationChangeItem(read, changed, { status: changed.status }),
    companyCountersItem(
      read.companyId,
      { [counter(read.status)]: -1, [counter(changed.status)]: 1 },
      assigneeCountChanges(hasAssigneeEntry(read) ? read : undefined, changed),
    ),
  ]);
  return result.written || readAgainOrThrow(result);
}
