import { type MemberRef, notAssignableMessage } from '../../shared/contract/conversations';
import { mayBeAssigned, type Seeable, seesWholeCompany } from '../../shared/visibility';
import { getUser } from '../auth/accounts';
import { type AppError, conflict } from '../lib/app-error';
import {
  channelRoutingNow,
  type LoadedViewer,
  loadViewer,
  membersWhoSee,
  type ViewerPrincipal,
  viewerSees,
} from '../team/visibility';
import type { ConversationRecord } from './records';
import { conversationNotFound, findConversationRecord } from './thread';

/**
 * Who sees what on every route that names a conversation (docs/product.md: Who sees what): the one
 * read those routes start with. A conversation an agent may not see is not found, with the same code
 * and message as one that never existed or another company's, so an id tells an outsider nothing.
 * Owners and admins see the whole company: the conversation is their only read, as before.
 */

/** Who asks: the handler's principal (the company comes from the verified token only). */
export type Reader = ViewerPrincipal;

/** What decides who sees a conversation, besides its channel's routing now. */
export function seeableConversation(record: Pick<ConversationRecord, 'channelId' | 'assignee' | 'mentionedUserIds'>) {
  return {
    channelId: record.channelId,
    assigneeId: record.assignee?.id ?? null,
    mentionedUserIds: record.mentionedUserIds ?? [],
  } satisfies Omit<Seeable, 'routing'> & { channelId: string };
}

/** The conversation when `reader` may see it; undefined when it is missing, another company's or hidden from them. */
export async function findVisibleConversation(reader: Reader, conversationId: string): Promise<ConversationRecord | undefined> {
  if (seesWholeCompany(reader.role)) return findConversationRecord(reader.companyId, conversationId);
  const [record, viewer] = await Promise.all([findConversationRecord(reader.companyId, conversationId), loadViewer(reader)]);
  return record && viewerSees(viewer, seeableConversation(record)) ? record : undefined;
}

/** As findVisibleConversation, answering 404 (`missing`: what the route says of a missing item) otherwise. */
export async function getVisibleConversation(
  reader: Reader,
  conversationId: string,
  missing: () => AppError = conversationNotFound,
): Promise<ConversationRecord> {
  const record = await findVisibleConversation(reader, conversationId);
  if (!record) throw missing();
  return record;
}

/**
 * The members who may be assigned the conversation or be offered in its mention list: owners, admins
 * and the agents who see it without an assignment (shared/visibility.ts mayBeAssigned), by name.
 */
export async function assignableMembers(record: ConversationRecord): Promise<MemberRef[]> {
  const routing = await channelRoutingNow(record.companyId, record.channelId);
  const members = await membersWhoSee(record.companyId, { routing, mentionedUserIds: record.mentionedUserIds ?? [] });
  return members.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Refuses (409, notAssignableMessage) to assign the conversation to a member who does not see it
 * without the assignment: no read for owners and admins, two for an agent.
 */
export async function requireAssignable(
  record: ConversationRecord,
  member: { id: string; name: string; role: Reader['role'] },
): Promise<void> {
  if (seesWholeCompany(member.role)) return;
  const viewer = await loadViewer({ companyId: record.companyId, userId: member.id, role: member.role });
  if (mayBeAssignedBy(viewer, record)) return;
  const routingType = viewer.routing.get(record.channelId)?.routingType ?? null;
  throw conflict(notAssignableMessage(member.name, routingType));
}

/** The viewer of a member a removal's conversations go to (null: none): loaded once for all of them. */
export async function assigneeViewer(companyId: string, to: MemberRef | null): Promise<LoadedViewer | null> {
  if (!to) return null;
  const user = await getUser(companyId, to.id);
  // Gone meanwhile: the move's own check of the target refuses it, and its conversations go to Unassigned.
  return loadViewer({ companyId, userId: to.id, role: user?.role ?? 'AGENT' });
}

/** As mayBeAssignedTo, with the member's viewer loaded once for many conversations (a removal's moves). */
export function mayBeAssignedBy(member: LoadedViewer, record: ConversationRecord): boolean {
  const { channelId, mentionedUserIds } = seeableConversation(record);
  return mayBeAssigned(member, { routing: member.routing.get(channelId), mentionedUserIds });
}
