import { randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Channel, Provider, ProviderNumber } from '../../shared/contract/settings';
import { newId } from '../auth/opaque-tokens';
import { AppError, badRequest, conflict, notFound } from '../lib/app-error';
import { setting, tableName } from '../lib/config';
import { db } from '../lib/db';
import { logError } from '../lib/log';
import { queryPrefix } from '../lib/query';
import { decryptSecret, encryptSecret } from '../lib/secrets';
import { keys } from '../lib/table';
import { type NumberUpdate, TwilioApiError, type TwilioIncomingNumber, twilioClient } from '../twilio/rest-client';
import { listChannelRecords } from './channels';
import { type ChannelRecord, type PreviousNumberUrls, type ProviderRecord, toChannel, toProvider } from './records';

const providerNotFound = () => notFound('Provider not found');

/** Where Twilio calls the platform: `<base>/<webhookId>/sms` and friends (DESIGN §3). */
async function webhookBase(): Promise<string> {
  const base = process.env.WEBHOOK_BASE_URL ?? `${(await setting('APP_URL')).replace(/\/$/, '')}/webhooks/twilio`;
  return base.replace(/\/$/, '');
}

const webhookUrls = async (webhookId: string) => {
  const base = `${await webhookBase()}/${webhookId}`;
  return {
    sms: `${base}/sms`,
    voice: `${base}/voice`,
    voiceStatus: `${base}/voice/status`,
    outboundVoice: `${base}/voice/outbound`,
  };
};

/** Twilio's answers mapped to what a person can act on; never a 500 for the vendor's failure. */
function fromTwilio(error: unknown, action: string): never {
  if (error instanceof TwilioApiError) {
    if (error.isAuthFailure) {
      throw new AppError(400, 'PROVIDER_AUTH_FAILED', 'Twilio rejected these credentials. Check the Account SID and Auth Token.');
    }
    throw new AppError(502, 'PROVIDER_UNAVAILABLE', `Twilio could not ${action}: ${error.message}`);
  }
  throw error;
}

export async function getProviderRecord(companyId: string, providerId: string): Promise<ProviderRecord> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.provider(companyId, providerId), ConsistentRead: true }),
  );
  if (!Item) throw providerNotFound();
  return Item as ProviderRecord;
}

async function clientFor(provider: ProviderRecord) {
  const authToken = await decryptSecret(provider.authTokenEncrypted, provider.companyId);
  return twilioClient({ accountSid: provider.accountSid, username: provider.accountSid, password: authToken });
}

function activeCount(channels: ChannelRecord[], providerId: string) {
  return channels.filter((c) => c.providerId === providerId && c.status === 'ACTIVE').length;
}

export async function listProviders(companyId: string): Promise<Provider[]> {
  const [providers, channels] = await Promise.all([
    queryPrefix<ProviderRecord>(keys.providersOf(companyId)),
    listChannelRecords(companyId),
  ]);
  return providers.map((p) => toProvider(p, activeCount(channels, p.id)));
}

/**
 * Checks the credentials against Twilio, then creates in the customer's account the API key (for voice
 * access tokens) and the TwiML application (outbound calls) the product needs, and stores the secrets
 * encrypted. Anything created in Twilio is removed again if a later step fails.
 */
export async function connectTwilio(companyId: string, accountSid: string, authToken: string): Promise<Provider> {
  const TableName = tableName();
  const { Item: existing } = await db.send(new GetCommand({ TableName, Key: keys.providerType(companyId, 'TWILIO') }));
  if (existing) throw conflict('A Twilio account is already connected. Disconnect it first.');

  const client = twilioClient({ accountSid, username: accountSid, password: authToken });
  await client.fetchAccount().catch((error) => fromTwilio(error, 'check the account'));

  const providerId = newId();
  const webhookId = randomBytes(18).toString('base64url');
  const created: { keySid?: string; appSid?: string } = {};
  try {
    const key = await client.createKey('Switchboard').catch((error) => fromTwilio(error, 'create an API key'));
    created.keySid = key.sid;
    const app = await client
      .createApplication({
        FriendlyName: 'Switchboard',
        VoiceUrl: (await webhookUrls(webhookId)).outboundVoice,
        VoiceMethod: 'POST',
      })
      .catch((error) => fromTwilio(error, 'create the TwiML application'));
    created.appSid = app.sid;

    const record: ProviderRecord = {
      id: providerId,
      companyId,
      type: 'TWILIO',
      accountSid,
      authTokenEncrypted: await encryptSecret(authToken, companyId),
      apiKeySid: key.sid,
      apiKeySecretEncrypted: await encryptSecret(key.secret, companyId),
      twimlAppSid: app.sid,
      webhookId,
      createdAt: new Date().toISOString(),
    };
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: { ...keys.providerType(companyId, 'TWILIO'), entity: 'PROVIDER_TYPE', providerId },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          { Put: { TableName, Item: { ...keys.provider(companyId, providerId), entity: 'PROVIDER', ...record } } },
          { Put: { TableName, Item: { ...keys.webhook(webhookId), entity: 'WEBHOOK', companyId, providerId } } },
        ],
      }),
    );
    return toProvider(record, 0);
  } catch (error) {
    await Promise.allSettled([
      created.appSid && client.deleteApplication(created.appSid),
      created.keySid && client.deleteKey(created.keySid),
    ]);
    if (error instanceof TransactionCanceledException)
      throw conflict('A Twilio account is already connected. Disconnect it first.');
    throw error;
  }
}

/**
 * Disconnects: puts each imported number's URLs back as they were before import, deletes the API key
 * and the TwiML application, deactivates the channels and forgets the credentials. The Twilio account
 * and its numbers stay. Twilio failures (revoked credentials, a released number) are logged and do
 * not keep the company connected against its will.
 */
export async function disconnectProvider(companyId: string, providerId: string): Promise<Provider> {
  const provider = await getProviderRecord(companyId, providerId);
  const TableName = tableName();
  const channels = (await listChannelRecords(companyId)).filter((c) => c.providerId === providerId && c.status === 'ACTIVE');
  const client = await clientFor(provider);
  const vendorSteps = [
    ...channels.filter((c) => c.numberSid).map((c) => client.updateIncomingNumber(c.numberSid as string, restoreUpdate(c))),
    client.deleteApplication(provider.twimlAppSid),
    client.deleteKey(provider.apiKeySid),
  ];
  for (const result of await Promise.allSettled(vendorSteps)) {
    if (result.status === 'rejected' && !(result.reason instanceof TwilioApiError && result.reason.isNotFound)) {
      logError({ route: 'disconnectProvider', companyId, providerId }, result.reason);
    }
  }
  await Promise.all(
    channels.map((c) =>
      db.send(
        new UpdateCommand({
          TableName,
          Key: keys.channel(companyId, c.id),
          UpdateExpression: 'SET #status = :inactive',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':inactive': 'INACTIVE' },
        }),
      ),
    ),
  );
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName, Key: keys.provider(companyId, providerId) } },
        { Delete: { TableName, Key: keys.providerType(companyId, provider.type) } },
        { Delete: { TableName, Key: keys.webhook(provider.webhookId) } },
      ],
    }),
  );
  return toProvider(provider, 0);
}

/** Only what import changed goes back: a capability left alone at import stays as it is now. */
function restoreUpdate(channel: ChannelRecord): NumberUpdate {
  const p = channel.previousUrls ?? {};
  const update: NumberUpdate = {};
  if (channel.enabled?.sms) Object.assign(update, { SmsUrl: p.SmsUrl ?? '', SmsMethod: p.SmsMethod ?? 'POST' });
  if (channel.enabled?.voice) {
    Object.assign(update, {
      VoiceUrl: p.VoiceUrl ?? '',
      VoiceMethod: p.VoiceMethod ?? 'POST',
      StatusCallback: p.StatusCallback ?? '',
      StatusCallbackMethod: p.StatusCallbackMethod ?? 'POST',
    });
  }
  return update;
}

function capabilitiesOf(number: TwilioIncomingNumber) {
  return {
    voice: Boolean(number.capabilities.voice),
    sms: Boolean(number.capabilities.sms),
    mms: Boolean(number.capabilities.mms),
  };
}

export async function availableNumbers(companyId: string, providerId: string): Promise<ProviderNumber[]> {
  const provider = await getProviderRecord(companyId, providerId);
  const client = await clientFor(provider);
  const [numbers, channels] = await Promise.all([
    client.listIncomingNumbers().catch((error) => fromTwilio(error, 'list the phone numbers')),
    listChannelRecords(companyId),
  ]);
  const imported = new Set(channels.filter((c) => c.status === 'ACTIVE').map((c) => c.identifier));
  return numbers.map((n) => ({
    sid: n.sid,
    phoneNumber: n.phone_number,
    friendlyName: n.friendly_name,
    imported: imported.has(n.phone_number),
    capabilities: capabilitiesOf(n),
  }));
}

/**
 * Imports numbers as channels. Only ticked capabilities the number really has are pointed at the
 * platform. A number that is already an active channel is left as it is; one that is another
 * company's channel is refused before anything changes.
 */
export async function importChannels(
  companyId: string,
  providerId: string,
  requested: { sid: string; phoneNumber: string; capabilities: { voice: boolean; sms: boolean } }[],
): Promise<{ channels: Channel[]; importedCount: number }> {
  const provider = await getProviderRecord(companyId, providerId);
  const client = await clientFor(provider);
  const TableName = tableName();
  const [accountNumbers, existing] = await Promise.all([
    client.listIncomingNumbers().catch((error) => fromTwilio(error, 'list the phone numbers')),
    listChannelRecords(companyId),
  ]);
  const bySid = new Map(accountNumbers.map((n) => [n.sid, n]));
  const byIdentifier = new Map(existing.map((c) => [c.identifier, c]));

  const plan: { number: TwilioIncomingNumber; enabled: { voice: boolean; sms: boolean }; channel?: ChannelRecord }[] = [];
  const seen = new Set<string>();
  for (const item of requested) {
    const number = bySid.get(item.sid);
    if (!number) throw badRequest(`The number ${item.phoneNumber} is not in this Twilio account.`);
    if (seen.has(number.sid)) continue;
    seen.add(number.sid);
    const channel = byIdentifier.get(number.phone_number);
    if (channel?.status === 'ACTIVE') continue;
    const { Item: owner } = await db.send(new GetCommand({ TableName, Key: keys.number(number.phone_number) }));
    if (owner && owner.companyId !== companyId) {
      throw new AppError(409, 'NUMBER_IN_USE', `The number ${number.phone_number} is already a channel of another company.`);
    }
    const caps = capabilitiesOf(number);
    plan.push({
      number,
      enabled: { voice: item.capabilities.voice && caps.voice, sms: item.capabilities.sms && caps.sms },
      channel,
    });
  }

  const urls = await webhookUrls(provider.webhookId);
  const imported: Channel[] = [];
  for (const { number, enabled, channel } of plan) {
    const previousUrls: PreviousNumberUrls = {
      SmsUrl: number.sms_url ?? '',
      SmsMethod: number.sms_method ?? 'POST',
      VoiceUrl: number.voice_url ?? '',
      VoiceMethod: number.voice_method ?? 'POST',
      StatusCallback: number.status_callback ?? '',
      StatusCallbackMethod: number.status_callback_method ?? 'POST',
    };
    const update: NumberUpdate = {};
    if (enabled.sms) Object.assign(update, { SmsUrl: urls.sms, SmsMethod: 'POST' });
    if (enabled.voice) {
      Object.assign(update, {
        VoiceUrl: urls.voice,
        VoiceMethod: 'POST',
        StatusCallback: urls.voiceStatus,
        StatusCallbackMethod: 'POST',
      });
    }
    if (Object.keys(update).length) {
      await client.updateIncomingNumber(number.sid, update).catch((error) => fromTwilio(error, `update ${number.phone_number}`));
    }
    const record: ChannelRecord = {
      id: channel?.id ?? newId(),
      companyId,
      type: 'PHONE',
      identifier: number.phone_number,
      status: 'ACTIVE',
      capabilities: capabilitiesOf(number),
      enabled,
      providerId,
      numberSid: number.sid,
      previousUrls,
      routingType: channel?.routingType ?? 'UNASSIGNED',
      routingTargetId: channel?.routingTargetId ?? null,
      createdAt: channel?.createdAt ?? new Date().toISOString(),
    };
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName,
                Item: { ...keys.number(number.phone_number), entity: 'NUMBER', companyId, channelId: record.id },
                // One channel per number: a parallel import of the same number cannot make a second.
                ConditionExpression: 'attribute_not_exists(PK) OR (companyId = :company AND channelId = :channel)',
                ExpressionAttributeValues: { ':company': companyId, ':channel': record.id },
              },
            },
            { Put: { TableName, Item: { ...keys.channel(companyId, record.id), entity: 'CHANNEL', ...record } } },
          ],
        }),
      );
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const { Item: owner } = await db.send(
        new GetCommand({ TableName, Key: keys.number(number.phone_number), ConsistentRead: true }),
      );
      // A parallel import of this company got there first: it is imported, with the same URLs.
      if (owner?.companyId === companyId) continue;
      // Lost the number to another company: give it its URLs back and say why.
      await client.updateIncomingNumber(number.sid, restoreUpdate(record)).catch(() => {});
      throw new AppError(409, 'NUMBER_IN_USE', `The number ${number.phone_number} is already a channel of another company.`);
    }
    imported.push(toChannel(record, undefined));
  }
  return { channels: imported, importedCount: imported.length };
}
