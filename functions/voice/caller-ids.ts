import type { CallerId } from '../../shared/contract/voice';
import { memberNumbers } from '../settings/member-numbers';
import { type ChannelRecord, enabledCapabilities } from '../settings/records';

/**
 * The numbers a user may call out as (docs/product.md §6: making calls needs a caller ID): the active voice
 * channels routed to an inbox the user is a member of, and those routed to the user directly.
 */
export const listCallerIds = async (companyId: string, userId: string): Promise<CallerId[]> =>
  (await memberNumbers(companyId, userId, { capability: 'voice', unassigned: false })).map(
    ({ channelId, phoneNumber, inboxName }) => ({ channelId, phoneNumber, inboxName }),
  );

/** A channel that takes and places calls: an active phone number whose voice import pointed at the platform. */
export const isVoiceChannel = (c: ChannelRecord) => c.type === 'PHONE' && c.status === 'ACTIVE' && enabledCapabilities(c).voice;
