import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type SendingBlock, sendingBlockedMessage } from '../../shared/contract/conversations';
import { defaultCountry } from '../company/settings';
import { conflict } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { isConnected } from '../settings/providers';
import { type ChannelRecord, enabledCapabilities, type ProviderRecord } from '../settings/records';
import type { ConversationRecord } from './records';

export type SendingRoute =
  | { block: null; channel: ChannelRecord; provider: ProviderRecord }
  | { block: SendingBlock; channel?: undefined; provider?: undefined };

/** What the route depends on: a conversation's channel, or the channel a new conversation starts on. */
type RouteOf = Pick<ConversationRecord, 'companyId' | 'channelId' | 'channelIdentifier'>;

/** The channel and provider a text of the conversation leaves through, or why it cannot leave now. */
export async function sendingRoute(conversation: RouteOf): Promise<SendingRoute> {
  const TableName = tableName();
  const { companyId } = conversation;
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.channel(companyId, conversation.channelId) }));
  const channel = Item as ChannelRecord | undefined;
  if (channel?.status !== 'ACTIVE') return { block: 'CHANNEL_INACTIVE' };
  if (!enabledCapabilities(channel).sms) return { block: 'CHANNEL_WITHOUT_SMS' };
  const found = channel.providerId
    ? (await db.send(new GetCommand({ TableName, Key: keys.provider(companyId, channel.providerId) }))).Item
    : undefined;
  const provider = found as ProviderRecord | undefined;
  if (!provider || !isConnected(provider)) return { block: 'PROVIDER_NOT_CONNECTED' };
  return { block: null, channel, provider };
}

/** As sendingRoute, refusing (409) with what the thread says when the text cannot leave. */
export async function requireSendingRoute(conversation: RouteOf) {
  const route = await sendingRoute(conversation);
  if (route.block === null) return route;
  // Only on a refusal: the phone-number metadata stays out of the sending path's cold start.
  const [{ formatPhoneNumber, toCountryCode }, country] = await Promise.all([
    import('../../shared/phone-numbers'),
    defaultCountry(conversation.companyId),
  ]);
  const number = formatPhoneNumber(conversation.channelIdentifier, toCountryCode(country));
  const code = route.block === 'PROVIDER_NOT_CONNECTED' ? 'PROVIDER_NOT_FOUND' : 'CHANNEL_INACTIVE';
  throw conflict(sendingBlockedMessage(route.block, number), code);
}
