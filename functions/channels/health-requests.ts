import { CHANNEL_REPAIRS_PER_COMPANY_MINUTE, HEALTH_REFRESHES_PER_MEMBER_MINUTE } from '../../shared/constants';
import type { ChannelHealth, HealthChange } from '../../shared/contract/channel-health';
import { AppError } from '../lib/app-error';
import { consumeSliding, type SlidingLimit } from '../lib/throttle';
import { getChannelRecord } from '../settings/channels';
import { getConnectedProvider } from '../settings/providers';
import type { ChannelRecord, ProviderRecord } from '../settings/records';
import { channelHealthOf, checkChannel, isCheckable, repairChannel } from './health';

/**
 * What GET /channels/{id}/health and POST /channels/{id}/repair may ask of Twilio, in windows of their
 * own (docs/product.md: Sending limits): each member's refreshes (and first looks) a minute, so no one
 * can burst the company's account, and the company's repairs a minute, which only owners and admins
 * make, so an agent's refreshes never hold up a repair.
 */
export function refreshLimit(companyId: string, userId: string): SlidingLimit {
  return {
    bucket: 'CHANNEL_HEALTH_REFRESH',
    subject: `${companyId}#${userId}`,
    limit: HEALTH_REFRESHES_PER_MEMBER_MINUTE,
    windowSeconds: 60,
    message: (when) =>
      `You can ask Twilio about channels ${HEALTH_REFRESHES_PER_MEMBER_MINUTE} times a minute. Please try again ${when}.`,
  };
}

export function repairLimit(companyId: string): SlidingLimit {
  return {
    bucket: 'CHANNEL_REPAIR',
    subject: companyId,
    limit: CHANNEL_REPAIRS_PER_COMPANY_MINUTE,
    windowSeconds: 60,
    message: (when) =>
      `This company’s channels can be repaired ${CHANNEL_REPAIRS_PER_COMPANY_MINUTE} times a minute. Please try again ${when}.`,
  };
}

/** The channel and its provider, when it has a number in Twilio to ask about. */
async function checkable(companyId: string, channelId: string): Promise<{ channel: ChannelRecord; provider?: ProviderRecord }> {
  const channel = await getChannelRecord(companyId, channelId);
  if (!isCheckable(channel)) return { channel };
  return { channel, provider: await getConnectedProvider(companyId, channel.providerId as string) };
}

/** The last check; `refresh` asks Twilio now. A channel never checked is checked once, if the member's window allows. */
export async function channelHealth(
  companyId: string,
  userId: string,
  channelId: string,
  refresh: boolean,
): Promise<ChannelHealth> {
  const { channel, provider } = await checkable(companyId, channelId);
  if (refresh && !provider) {
    throw new AppError(409, 'CHANNEL_INACTIVE', 'This channel has no active Twilio number to check.');
  }
  if (!provider) return channelHealthOf(channel);
  if (refresh) {
    await consumeSliding([refreshLimit(companyId, userId)], 1);
    return channelHealthOf(await checkChannel(provider, channel));
  }
  if (channel.health) return channelHealthOf(channel);
  const allowed = await consumeSliding([refreshLimit(companyId, userId)], 1).then(
    () => true,
    (error) => {
      if (error instanceof AppError && error.status === 429) return false;
      throw error;
    },
  );
  return channelHealthOf(allowed ? await checkChannel(provider, channel) : channel);
}

export async function repairCompanyChannel(
  companyId: string,
  channelId: string,
  userId: string,
  confirmed: { messagingService: boolean } = { messagingService: false },
): Promise<{ health: ChannelHealth; changes: HealthChange[] }> {
  const { channel, provider } = await checkable(companyId, channelId);
  if (!provider) throw new AppError(409, 'CHANNEL_INACTIVE', 'This channel has no active Twilio number to repair.');
  await consumeSliding([repairLimit(companyId)], 1);
  const repaired = await repairChannel(provider, channel, userId, confirmed);
  return { health: await channelHealthOf(repaired.channel), changes: repaired.changes };
}
