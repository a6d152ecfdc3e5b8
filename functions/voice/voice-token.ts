import { GetCommand } from '@aws-sdk/lib-dynamodb';
import AccessToken from 'twilio/lib/jwt/AccessToken';
import { VOICE_TOKEN_LIMIT, VOICE_TOKEN_TTL_SECONDS, VOICE_TOKEN_WINDOW_SECONDS } from '../../shared/constants';
import { AppError } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { decryptSecret } from '../lib/secrets';
import { keys } from '../lib/table';
import { consume, type Limit } from '../lib/throttle';
import type { ProviderRecord } from '../settings/records';
import { clientIdentity } from './client-identity';

const VOICE_TOKENS: Limit = {
  bucket: 'voice-token',
  limit: VOICE_TOKEN_LIMIT,
  windowSeconds: VOICE_TOKEN_WINDOW_SECONDS,
  message: (minutes) => `Too many calling tokens requested. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

/**
 * VOICE_TOKEN_TTL_SECONDS, or a shorter lifetime the local stack sets (LOCAL_VOICE_TOKEN_TTL_SECONDS,
 * never set in AWS) so a browser test sees the softphone renew its token within a call in a minute or
 * two rather than 15. It can only shorten the lifetime, and never below the SDK's renewal warning.
 */
const MIN_LOCAL_TTL_SECONDS = 30;
export function voiceTokenTtlSeconds(): number {
  const local = Number(process.env.LOCAL_VOICE_TOKEN_TTL_SECONDS);
  return Number.isInteger(local) && local >= MIN_LOCAL_TTL_SECONDS && local < VOICE_TOKEN_TTL_SECONDS
    ? local
    : VOICE_TOKEN_TTL_SECONDS;
}

/** docs/product.md §8: the widget reads this code and quietly turns calling off. */
const noProvider = () =>
  new AppError(
    404,
    'PROVIDER_NOT_FOUND',
    'No telephony provider is connected. Connect Twilio in Settings → Providers to make calls.',
  );

/** What a voice token needs of the company's Twilio connection; a connect that has not finished has none of it. */
type VoiceProvider = ProviderRecord & Required<Pick<ProviderRecord, 'apiKeySid' | 'apiKeySecretEncrypted' | 'twimlAppSid'>>;

async function voiceProvider(companyId: string): Promise<VoiceProvider> {
  const TableName = tableName();
  const { Item: type } = await db.send(new GetCommand({ TableName, Key: keys.providerType(companyId, 'TWILIO') }));
  if (!type) throw noProvider();
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.provider(companyId, type.providerId as string) }));
  const provider = Item as ProviderRecord | undefined;
  if (!provider || provider.status === 'CONNECTING') throw noProvider();
  if (!provider.apiKeySid || !provider.apiKeySecretEncrypted || !provider.twimlAppSid) throw noProvider();
  return provider as VoiceProvider;
}

/**
 * A Twilio Access Token for the browser's Voice SDK (docs/architecture.md §3): signed with the API key the connect
 * created, identity from the user id alone, incoming calls allowed, outgoing calls through the
 * company's TwiML application, valid 15 minutes (voiceTokenTtlSeconds). Counted per user: a loop in a
 * tab cannot mint tokens without end.
 */
export async function issueVoiceToken(companyId: string, userId: string): Promise<string> {
  await consume(VOICE_TOKENS, userId);
  const provider = await voiceProvider(companyId);
  const secret = await decryptSecret(provider.apiKeySecretEncrypted, companyId);
  const token = new AccessToken(provider.accountSid, provider.apiKeySid, secret, {
    identity: clientIdentity(userId),
    ttl: voiceTokenTtlSeconds(),
  });
  token.addGrant(new AccessToken.VoiceGrant({ incomingAllow: true, outgoingApplicationSid: provider.twimlAppSid }));
  return token.toJwt();
}
