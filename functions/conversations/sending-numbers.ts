import type { SendingNumber } from '../../shared/contract/conversations';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { listChannelRecords } from '../settings/channels';
import { type ChannelRecord, enabledCapabilities, type InboxRecord } from '../settings/records';

/**
 * The numbers a member may start a text from (docs/product.md: New conversation): the active SMS
 * channels routed to the member, to an inbox they are a member of, or to nobody (an unassigned
 * number's texts reach the whole team, so anyone may write first). As the caller IDs of calls
 * (voice/caller-ids.ts), plus the unassigned numbers. Three Queries in the company's partition.
 */
export async function listSendingNumbers(companyId: string, userId: string): Promise<SendingNumber[]> {
  const [channels, memberships, inboxes] = await Promise.all([
    listChannelRecords(companyId),
    queryPrefix<{ inboxId: string }>(keys.userInboxesOf(companyId, userId)),
    queryPrefix<InboxRecord>(keys.inboxesOf(companyId)),
  ]);
  const myInboxes = new Set(memberships.map((m) => m.inboxId));
  const inboxNames = new Map(inboxes.map((i) => [i.id, i.name]));
  return channels
    .filter(isSmsChannel)
    .flatMap((c): SendingNumber[] => {
      const own = { channelId: c.id, phoneNumber: c.identifier };
      if (c.routingType === 'UNASSIGNED') return [{ ...own, inboxName: null }];
      if (c.routingType === 'USER' && c.routingTargetId === userId) return [{ ...own, inboxName: null }];
      if (c.routingType === 'INBOX' && c.routingTargetId && myInboxes.has(c.routingTargetId)) {
        const inboxName = inboxNames.get(c.routingTargetId);
        return inboxName === undefined ? [] : [{ ...own, inboxName }];
      }
      return [];
    })
    .sort((a, b) => a.phoneNumber.localeCompare(b.phoneNumber));
}

const isSmsChannel = (c: ChannelRecord) => c.type === 'PHONE' && c.status === 'ACTIVE' && enabledCapabilities(c).sms;
