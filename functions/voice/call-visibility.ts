import { channelRoutingNow, type LoadedViewer, membersWhoSee, viewerSees } from '../team/visibility';
import { type CallRecord, handledByOf } from './call-records';

/**
 * Who sees a call (docs/product.md: Who sees what): owners and admins; an agent when its channel
 * routes now to an inbox they belong to or to them, or when they placed or answered it.
 */

type CallOfChannel = Pick<CallRecord, 'companyId' | 'channelId' | 'answeredBy'>;

export function viewerSeesCall(viewer: LoadedViewer, call: Pick<CallRecord, 'channelId' | 'answeredBy'>): boolean {
  return viewerSees(viewer, { channelId: call.channelId, handledBy: handledByOf(call) });
}

/** The members who see the call now: the audience of its events (call_answered, call_ended, voicemail_received). */
export async function callAudience(call: CallOfChannel): Promise<string[]> {
  const routing = await channelRoutingNow(call.companyId, call.channelId);
  const members = await membersWhoSee(call.companyId, { routing, handledBy: handledByOf(call) });
  return members.map((m) => m.id);
}
