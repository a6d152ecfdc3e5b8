import type { ChannelHealth, HealthChange } from '../../shared/contract/channel-health';
import { AppError } from '../lib/app-error';
import { consume, countEvent, type Limit } from '../lib/throttle';
import { getChannelRecord } from '../settings/channels';
import { getConnectedProvider } from '../settings/providers';
import type { ChannelRecord, ProviderRecord } from '../settings/records';
import { channelHealthOf, checkChannel, isCheckable, repairChannel } from './health';

/**
 * What GET /channels/{id}/health and POST /channels/{id}/repair do. Every one of them that
 * asks Twilio counts against the company's window, so neither can be used to burst its account.
 */
export const healthChecksPerCompany: Limit = {
  bucket: 'CHANNEL_HEALTH',
  limit: 20,
  windowSeconds: 60,
  message: (m) =>
    `Twilio has been asked about this company’s channels often in the last minute. Please try again in ${m} minute${m === 1 ? '' : 's'}.`,
};

/** The channel and its provider, when it has a number in Twilio to ask about. */
async function checkable(companyId: string, channelId: string): Promise<{ channel: ChannelRecord; provider?: ProviderRecord }> {
  const channel = await getChannelRecord(companyId, channelId);
  if (!isCheckable(channel)) return { channel };
  return { channel, provider: await getConnectedProvider(companyId, channel.providerId as string) };
}

/** The last check; `refresh` asks Twilio now. A channel never checked is checked once, if the window allows. */
export async function channelHealth(companyId: string, channelId: string, refresh: boolean): Promise<ChannelHealth> {
  const { channel, provider } = await checkable(companyId, channelId);
  if (refresh && !provider) {
    throw new AppError(409, 'CHANNEL_INACTIVE', 'This channel has no active Twilio number to check.');
  }
  if (!provider) return channelHealthOf(channel);
  if (refresh) {
    await consume(healthChecksPerCompany, companyId);
    return channelHealthOf(await checkChannel(provider, channel));
  }
  if (!channel.health && (await countEvent(healthChecksPerCompany, companyId)) <= healthChecksPerCompany.limit) {
    return channelHealthOf(await checkChannel(provider, channel));
  }
  return channelHealthOf(channel);
}

export async function repairCompanyChannel(
  companyId: string,
  channelId: string,
  userId: string,
  confirmed: { messagingService: boolean } = { messagingService: false },
): Promise<{ health: ChannelHealth; changes: HealthChange[] }> {
  const { channel, provider } = await checkable(companyId, channelId);
  if (!provider) throw new AppError(409, 'CHANNEL_INACTIVE', 'This channel has no active Twilio number to repair.');
  await consume(healthChecksPerCompany, companyId);
  const repaired = await repairChannel(provider, channel, userId, confirmed);
  return { health: await channelHealthOf(repaired.channel), changes: repaired.changes };
}
