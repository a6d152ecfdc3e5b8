import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../shared/contract/auth';
import { type ChannelRouting, type Seeable, sees, seesChannel, seesWholeCompany, type Viewer } from '../../shared/visibility';
import type { UserRecord } from '../auth/accounts';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import type { ChannelRecord } from '../settings/records';

/**
 * Who sees what, on the server (shared/visibility.ts holds the rule; docs/product.md: Who sees what).
 * A viewer is loaded once a request: nothing to read for owners and admins; for an agent, their inboxes
 * and the company's channels' routing, two Queries whatever the company's size (channels are few).
 */
export interface LoadedViewer extends Viewer {
  /** Every channel's routing now, by id; empty for owners and admins, who need none. */
  routing: ReadonlyMap<string, ChannelRouting>;
}

export interface ViewerPrincipal {
  companyId: string;
  userId: string;
  role: Role;
}

const routingOf = (c: Pick<ChannelRecord, 'routingType' | 'routingTargetId'>): ChannelRouting => ({
  routingType: c.routingType,
  routingTargetId: c.routingTargetId,
});

export async function loadViewer(principal: ViewerPrincipal): Promise<LoadedViewer> {
  const { companyId, userId, role } = principal;
  if (seesWholeCompany(role)) return { userId, role, inboxIds: [], routing: new Map() };
  const [inboxes, channels] = await Promise.all([
    queryPrefix<{ inboxId: string }>(keys.userInboxesOf(companyId, userId), { projection: 'inboxId' }),
    queryPrefix<Pick<ChannelRecord, 'id' | 'routingType' | 'routingTargetId'>>(keys.channelsOf(companyId), {
      projection: 'id, routingType, routingTargetId',
    }),
  ]);
  return {
    userId,
    role,
    inboxIds: inboxes.map((i) => i.inboxId),
    routing: new Map(channels.map((c) => [c.id, routingOf(c)])),
  };
}

/** The channels whose conversations and calls the viewer sees by routing; 'ALL' for owners and admins. */
export function visibleChannelIds(viewer: LoadedViewer): readonly string[] | 'ALL' {
  if (seesWholeCompany(viewer.role)) return 'ALL';
  return [...viewer.routing.entries()].filter(([, routing]) => seesChannel(viewer, routing)).map(([id]) => id);
}

/** Whether the viewer sees an item of a channel (by id), with its assignee, mentions and handlers. */
export function viewerSees(viewer: LoadedViewer, item: Omit<Seeable, 'routing'> & { channelId: string }): boolean {
  const { channelId, ...rest } = item;
  return sees(viewer, { ...rest, routing: viewer.routing.get(channelId) });
}

/**
 * The members who see an item (an event's audience, the pickers' members): owners and admins, and the
 * agents the rule lets see it. Reads the company's members and, for an inbox's channel, its members.
 */
export async function membersWhoSee(companyId: string, item: Seeable): Promise<{ id: string; name: string; role: Role }[]> {
  const inboxId = item.routing?.routingType === 'INBOX' ? item.routing.routingTargetId : null;
  const [users, inboxMembers] = await Promise.all([
    queryPrefix<UserRecord>(keys.usersOf(companyId)),
    inboxId
      ? queryPrefix<{ userId: string }>(keys.inboxMembersOf(companyId, inboxId), { projection: 'userId' })
      : Promise.resolve([]),
  ]);
  const inInbox = inboxMembers.map((m) => m.userId);
  return users
    .filter((u) => !u.removedAt)
    .filter((u) => sees({ userId: u.id, role: u.role, inboxIds: inInbox.includes(u.id) && inboxId ? [inboxId] : [] }, item))
    .map((u) => ({ id: u.id, name: u.name, role: u.role }));
}

/** A channel's routing now; undefined once the channel is gone (then only owners and admins see what came in on it). */
export async function channelRoutingNow(companyId: string, channelId: string | undefined): Promise<ChannelRouting | undefined> {
  if (!channelId) return undefined;
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.channel(companyId, channelId),
      ProjectionExpression: 'routingType, routingTargetId',
    }),
  );
  return Item ? routingOf(Item as Pick<ChannelRecord, 'routingType' | 'routingTargetId'>) : undefined;
}
