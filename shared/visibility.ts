import type { Role } from './contract/auth';

/**
 * Who sees what (docs/product.md: Who sees what), one rule for the API, which enforces it, and the
 * web app, which offers only members who may see a conversation (assignee and mention pickers).
 * Owners and admins see everything of their company. An agent sees a conversation, call, voicemail or
 * picture when its channel routes now to an inbox they belong to or to them (their private line), or
 * when it is assigned to them, they handled it (a call they placed or answered), or they were
 * mentioned in it. A channel routed to no one (UNASSIGNED) is seen by owners and admins only.
 */

export type RoutingType = 'UNASSIGNED' | 'INBOX' | 'USER';

/** A channel's routing as it stands now: visibility follows it, for earlier conversations too. */
export interface ChannelRouting {
  routingType: RoutingType;
  routingTargetId: string | null;
}

/** Who is looking: their role and the inboxes they belong to. */
export interface Viewer {
  userId: string;
  role: Role;
  inboxIds: readonly string[];
}

/** What decides whether an item is seen; `routing` undefined when its channel is gone (deleted). */
export interface Seeable {
  routing: ChannelRouting | undefined;
  assigneeId?: string | null;
  /** Agents mentioned in it who would not see it otherwise (keys.mentionGrant). */
  mentionedUserIds?: readonly string[];
  /** Members who placed or answered it (calls). */
  handledBy?: readonly (string | null | undefined)[];
}

export function seesWholeCompany(role: Role): boolean {
  return role === 'OWNER' || role === 'ADMIN';
}

/** Whether the viewer sees what comes in on a channel routed so. */
export function seesChannel(viewer: Viewer, routing: ChannelRouting | undefined): boolean {
  if (seesWholeCompany(viewer.role)) return true;
  if (!routing || routing.routingTargetId === null) return false;
  if (routing.routingType === 'INBOX') return viewer.inboxIds.includes(routing.routingTargetId);
  if (routing.routingType === 'USER') return routing.routingTargetId === viewer.userId;
  return false;
}

export function sees(viewer: Viewer, item: Seeable): boolean {
  if (seesChannel(viewer, item.routing)) return true;
  if (item.assigneeId && item.assigneeId === viewer.userId) return true;
  if (item.mentionedUserIds?.includes(viewer.userId)) return true;
  return Boolean(item.handledBy?.includes(viewer.userId));
}

/**
 * Who may be assigned a conversation: a member who sees it without the assignment (an assignment
 * cannot be what lets its assignee see it).
 */
export function mayBeAssigned(member: Viewer, item: Seeable): boolean {
  return sees(member, { ...item, assigneeId: null });
}
