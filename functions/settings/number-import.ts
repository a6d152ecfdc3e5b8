import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Channel } from '../../shared/contract/settings';
import { newId } from '../auth/opaque-tokens';
import { AppError, badRequest } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import type { TwilioIncomingNumber } from '../twilio/rest-client';
import { listChannelRecords } from './channels';
import { changedSettings, importedSettings } from './number-settings';
import { getConnectedProvider } from './providers';
import { type ChannelRecord, type NumberImportRecord, type ProviderRecord, toChannel } from './records';
import { capabilitiesOf, clientFor, fromTwilio, restoreUpdate } from './twilio-account';
import { currentWebhookBase } from './webhook-base';
import { webhookUrls } from './webhook-urls';

/** Numbers updated in Twilio at the same time: an import of many numbers fits the function's timeout. */
const IMPORT_CONCURRENCY = 5;

interface PlannedNumber {
  number: TwilioIncomingNumber;
  enabled: { voice: boolean; sms: boolean };
  channel?: ChannelRecord;
}

/** Why a number was left out of an import. */
const TAKEN_REASON = 'it is already a channel of another company.';

/**
 * Imports numbers as channels. Only ticked capabilities the number really has are pointed at the
 * platform; a number with none of them is refused. A number that is already an active channel is
 * left as it is; one that is another company's channel (known before, or lost to a parallel import)
 * is skipped and reported, so one such row never fails the rest of the batch.
 *
 * Retry-safe: before a number is touched, its URLs from before are recorded (keys.numberImport), and
 * the channel is written once Twilio has it. An import stopped by its timeout is finished by the next
 * import of the same numbers (which reuses the recorded URLs rather than reading back our own) or
 * put back by a disconnect.
 */
export async function importChannels(
  companyId: string,
  providerId: string,
  requested: { sid: string; phoneNumber: string; capabilities: { voice: boolean; sms: boolean } }[],
): Promise<{ channels: Channel[]; importedCount: number; skipped: { phoneNumber: string; reason: string }[] }> {
  const provider = await withWebhookBase(await getConnectedProvider(companyId, providerId));
  const client = await clientFor(provider);
  const TableName = tableName();
  const [accountNumbers, existing] = await Promise.all([
    client.listIncomingNumbers().catch((error) => fromTwilio(error, 'list the phone numbers')),
    listChannelRecords(companyId),
  ]);
  const bySid = new Map(accountNumbers.map((n) => [n.sid, n]));
  const byIdentifier = new Map(existing.map((c) => [c.identifier, c]));

  const plan: PlannedNumber[] = [];
  const skipped: { phoneNumber: string; reason: string }[] = [];
  const seen = new Set<string>();
  for (const item of requested) {
    const number = bySid.get(item.sid);
    if (!number) throw badRequest(`The number ${item.phoneNumber} is not in this Twilio account.`);
    if (seen.has(number.sid)) continue;
    seen.add(number.sid);
    const channel = byIdentifier.get(number.phone_number);
    if (channel?.status === 'ACTIVE') continue;
    const caps = capabilitiesOf(number);
    const enabled = { voice: item.capabilities.voice && caps.voice, sms: item.capabilities.sms && caps.sms };
    if (!enabled.voice && !enabled.sms) {
      throw badRequest(`Choose Voice or SMS for ${number.phone_number}: a channel needs at least one of them.`);
    }
    const { Item: owner } = await db.send(new GetCommand({ TableName, Key: keys.number(number.phone_number) }));
    if (owner && owner.companyId !== companyId) {
      skipped.push({ phoneNumber: number.phone_number, reason: TAKEN_REASON });
      continue;
    }
    plan.push({ number, enabled, channel });
  }

  const imported: Channel[] = [];
  for (let i = 0; i < plan.length; i += IMPORT_CONCURRENCY) {
    const batch = await Promise.allSettled(
      plan.slice(i, i + IMPORT_CONCURRENCY).map((p) =>
        importOne(provider, p).catch((error) => {
          // Lost to another company meanwhile (its URLs are back): reported, not a failed batch.
          if (!isNumberInUse(error)) throw error;
          skipped.push({ phoneNumber: p.number.phone_number, reason: TAKEN_REASON });
          return undefined;
        }),
      ),
    );
    for (const result of batch)
      if (result.status === 'fulfilled' && result.value) imported.push(toChannel(result.value, undefined));
    const failed = batch.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
  return { channels: imported, importedCount: imported.length, skipped };
}

/** Records the webhook base on a provider connected before it was recorded, as its numbers get it now. */
async function withWebhookBase(provider: ProviderRecord): Promise<ProviderRecord & { webhookBaseUrl: string }> {
  if (provider.webhookBaseUrl) return provider as ProviderRecord & { webhookBaseUrl: string };
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.provider(provider.companyId, provider.id),
      UpdateExpression: 'SET webhookBaseUrl = if_not_exists(webhookBaseUrl, :base)',
      ExpressionAttributeValues: { ':base': await currentWebhookBase() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as ProviderRecord & { webhookBaseUrl: string };
}

const numberInUse = (phoneNumber: string) =>
  new AppError(409, 'NUMBER_IN_USE', `The number ${phoneNumber} is already a channel of another company.`);

const isNumberInUse = (error: unknown) => error instanceof AppError && error.code === 'NUMBER_IN_USE';

/** One number: record the intent, point it at the platform, then write its channel. Undefined if a parallel import won. */
async function importOne(
  provider: ProviderRecord & { webhookBaseUrl: string },
  { number, enabled, channel }: PlannedNumber,
): Promise<ChannelRecord | undefined> {
  const TableName = tableName();
  const { companyId } = provider;
  const intent = await recordIntent(provider, number, enabled, channel?.id ?? newId());
  const urls = webhookUrls(provider.webhookBaseUrl, provider.webhookId);
  // Only what differs is sent: an import finished by a retry finds the number pointed already.
  const update = changedSettings(number, importedSettings(intent.enabled, urls));
  const client = await clientFor(provider);
  if (Object.keys(update).length) {
    await client.updateIncomingNumber(number.sid, update).catch((error) => fromTwilio(error, `update ${number.phone_number}`));
  }
  const record: ChannelRecord = {
    id: intent.channelId,
    companyId,
    type: 'PHONE',
    identifier: number.phone_number,
    friendlyName: number.friendly_name,
    status: 'ACTIVE',
    capabilities: capabilitiesOf(number),
    enabled: intent.enabled,
    providerId: provider.id,
    numberSid: number.sid,
    previousUrls: intent.previousUrls,
    webhookBaseUrl: provider.webhookBaseUrl,
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
          { Delete: { TableName, Key: keys.numberImport(companyId, number.sid) } },
        ],
      }),
    );
    return record;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const { Item: owner } = await db.send(
      new GetCommand({ TableName, Key: keys.number(number.phone_number), ConsistentRead: true }),
    );
    // A parallel import of this company got there first: it is imported, with the same URLs.
    if (owner?.companyId === companyId) return undefined;
    // Lost the number to another company: give it its URLs back and say why.
    await client.updateIncomingNumber(number.sid, restoreUpdate(intent)).catch(() => {});
    await db.send(new DeleteCommand({ TableName, Key: keys.numberImport(companyId, number.sid) }));
    throw numberInUse(number.phone_number);
  }
}

/**
 * The number's URLs from before import, written before the number is touched. An earlier attempt's
 * record wins: by now the number may already point at the platform, and those are not its URLs.
 */
async function recordIntent(
  provider: ProviderRecord,
  number: TwilioIncomingNumber,
  enabled: { voice: boolean; sms: boolean },
  channelId: string,
): Promise<NumberImportRecord> {
  const TableName = tableName();
  const key = keys.numberImport(provider.companyId, number.sid);
  const { Item } = await db.send(new GetCommand({ TableName, Key: key, ConsistentRead: true }));
  if (Item) {
    const earlier = Item as NumberImportRecord;
    // Whatever either attempt points at the platform must go back on disconnect.
    const merged = { voice: earlier.enabled.voice || enabled.voice, sms: earlier.enabled.sms || enabled.sms };
    if (merged.voice !== earlier.enabled.voice || merged.sms !== earlier.enabled.sms) {
      await db.send(
        new UpdateCommand({
          TableName,
          Key: key,
          UpdateExpression: 'SET enabled = :enabled',
          ExpressionAttributeValues: { ':enabled': merged },
        }),
      );
    }
    return { ...earlier, enabled: merged };
  }
  const intent: NumberImportRecord = {
    companyId: provider.companyId,
    providerId: provider.id,
    numberSid: number.sid,
    phoneNumber: number.phone_number,
    channelId,
    enabled,
    previousUrls: {
      SmsUrl: number.sms_url ?? '',
      SmsMethod: number.sms_method ?? 'POST',
      VoiceUrl: number.voice_url ?? '',
      VoiceMethod: number.voice_method ?? 'POST',
      StatusCallback: number.status_callback ?? '',
      StatusCallbackMethod: number.status_callback_method ?? 'POST',
      ...(number.voice_application_sid && { VoiceApplicationSid: number.voice_application_sid }),
      ...(number.sms_application_sid && { SmsApplicationSid: number.sms_application_sid }),
    },
  };
  try {
    await db.send(
      new PutCommand({
        TableName,
        Item: { ...key, entity: 'NUMBER_IMPORT', ...intent },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return intent;
  } catch (error) {
    // A parallel import recorded it first: use its record.
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const { Item: first } = await db.send(new GetCommand({ TableName, Key: key, ConsistentRead: true }));
    return (first as NumberImportRecord) ?? intent;
  }
}
