import type { VisibilityChange } from '../../shared/contract/realtime-events';
import type { ChannelRouting } from '../../shared/visibility';
import { publish } from '../realtime/publish';
import { membersWhoSee } from './visibility';

/**
 * Taking the view away at once (docs/product.md: Who sees what): a change of inbox membership, of a
 * channel's routing or of a role tells the members whose view it changed, so their open tabs read their
 * lists and unread count again and a thread they no longer see closes with a notice. Those who see as
 * much as before hear nothing.
 */
export function tellViewChanged(companyId: string, userIds: readonly string[], reason: VisibilityChange): Promise<number> {
  if (userIds.length === 0) return Promise.resolve(0);
  return publish(companyId, { type: 'visibility_changed', data: { reason } }, { userIds });
}

/**
 * A channel routed elsewhere: the members who saw what comes in on it and no longer do, and those who
 * now do and did not (owners and admins see it either way). Two Queries per routing.
 */
export async function tellRoutingChanged(
  companyId: string,
  before: ChannelRouting | undefined,
  after: ChannelRouting | undefined,
): Promise<number> {
  const [was, is] = await Promise.all([
    membersWhoSee(companyId, { routing: before }),
    membersWhoSee(companyId, { routing: after }),
  ]);
  const wasIds = new Set(was.map((m) => m.id));
  const isIds = new Set(is.map((m) => m.id));
  const changed = [...wasIds, ...isIds].filter((id) => wasIds.has(id) !== isIds.has(id));
  return tellViewChanged(companyId, changed, 'ROUTING');
}
