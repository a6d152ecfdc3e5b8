import type { CallerId } from '../../shared/contract/voice';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { listChannelRecords } from '../settings/channels';
import { type ChannelRecord, enabledCapabilities, type InboxRecord } from '../settings/records';

/**
 * The numbers a user may call out as (docs/product.md §6: making calls needs a caller ID): the active voice
 * channels routed to an inbox the user is a member of, and those routed to the user directly. Three
 * Queries in the company's partition, whatever its size.
 */
export async function listCallerIds(companyId: string, userId: string): Promise<CallerId[]> {
  const [channels, memberships, inboxes] = await Promise.all([
    listChannelRecords(companyId),
    queryPrefix<{ inboxId: string }>(keys.userInboxesOf(companyId, userId)),
    queryPrefix<InboxRecord>(keys.inboxesOf(companyId)),
  ]);
  const myInboxes = new Set(memberships.map((m) => m.inboxId));
  const inboxNames = new Map(inboxes.map((i) => [i.id, i.name]));
  return channels
    .filter((c) => isVoiceChannel(c))
    .flatMap((c): CallerId[] => {
      if (c.routingType === 'USER' && c.routingTargetId === userId) {
        return [{ phoneNumber: c.identifier, inboxName: null, channelId: c.id }];
      }
      if (c.routingType === 'INBOX' && c.routingTargetId && myInboxes.has(c.routingTargetId)) {
        const inboxName = inboxNames.get(c.routingTargetId);
        return inboxName === undefined ? [] : [{ phoneNumber: c.identifier, inboxName, channelId: c.id }];
      }
      return [];
    })
    .sort((a, b) => a.phoneNumber.localeCompare(b.phoneNumber));
}

/** A channel that takes and places calls: an active phone number whose voice import pointed at the platform. */
export const isVoiceChannel = (c: ChannelRecord) => c.type === 'PHONE' && c.status === 'ACTIVE' && enabledCapabilities(c).voice;
