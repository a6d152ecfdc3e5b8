import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { listChannelRecords } from './channels';
import { type ChannelRecord, enabledCapabilities, type InboxRecord } from './records';

/** A number a member may use, with the inbox it is routed to (null: routed to the member, or to nobody). */
export interface MemberNumber {
  channelId: string;
  phoneNumber: string;
  /** Whether it can send pictures (MMS travels with SMS: enabledCapabilities). */
  mms: boolean;
  inboxName: string | null;
}

/**
 * The active phone numbers with `capability` that a member may use: those routed to them directly, to
 * an inbox they are a member of, and with `unassigned`, those routed to nobody. Three Queries in the
 * company's partition, whatever its size; sorted by number.
 */
export async function memberNumbers(
  companyId: string,
  userId: string,
  { capability, unassigned }: { capability: 'sms' | 'voice'; unassigned: boolean },
): Promise<MemberNumber[]> {
  const [channels, memberships, inboxes] = await Promise.all([
    listChannelRecords(companyId),
    queryPrefix<{ inboxId: string }>(keys.userInboxesOf(companyId, userId)),
    queryPrefix<InboxRecord>(keys.inboxesOf(companyId)),
  ]);
  const myInboxes = new Set(memberships.map((m) => m.inboxId));
  const inboxNames = new Map(inboxes.map((i) => [i.id, i.name]));
  return channels
    .filter((c: ChannelRecord) => c.type === 'PHONE' && c.status === 'ACTIVE' && enabledCapabilities(c)[capability])
    .flatMap((c): MemberNumber[] => {
      const own = { channelId: c.id, phoneNumber: c.identifier, mms: enabledCapabilities(c).mms };
      if (c.routingType === 'UNASSIGNED' && unassigned) return [{ ...own, inboxName: null }];
      if (c.routingType === 'USER' && c.routingTargetId === userId) return [{ ...own, inboxName: null }];
      if (c.routingType === 'INBOX' && c.routingTargetId && myInboxes.has(c.routingTargetId)) {
        const inboxName = inboxNames.get(c.routingTargetId);
        return inboxName === undefined ? [] : [{ ...own, inboxName }];
      }
      return [];
    })
    .sort((a, b) => a.phoneNumber.localeCompare(b.phoneNumber));
}
