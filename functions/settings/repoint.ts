import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { type NumberUpdate, TwilioApiError, type TwilioIncomingNumber } from '../twilio/rest-client';
import { importedSettings, numberSetting } from './number-settings';
import type { ChannelRecord, ProviderRecord } from './records';
import { clientFor } from './twilio-account';
import { numbersPointedBy, pointingElsewhere, webhookUrls } from './webhook-urls';

/**
 * Re-pointing one provider's Twilio numbers and TwiML application at another webhook base
 * (docs/deploy.md: Re-pointing the numbers). The platform admin's re-point
 * (functions/admin/webhook-address.ts) runs it for every company; a company's own channel repair can
 * run it for one.
 *
 * Signatures keep verifying throughout: the new base is recorded on the provider and its webhook id
 * first, with the old one kept as `previousWebhookBaseUrl`, which verifies too (functions/lib/define-webhook.ts)
 * — for the numbers not yet re-pointed and for callbacks of messages and calls begun before. Each
 * number's record gets the new base once Twilio has it. Idempotent: what is on the base already is
 * left alone, and a number is only counted when its record changes.
 */

/** Numbers updated in Twilio at the same time, as import does. */
const REPOINT_CONCURRENCY = 5;

export interface RepointOutcome {
  /** Numbers whose record moved to the base in this pass. */
  numbers: number;
  /** Whether the provider itself (its record or its application) moved. */
  providerMoved: boolean;
  failures: { phoneNumber: string | null; reason: string }[];
  /** False when time ran short before every number was tried: run it again. */
  complete: boolean;
}

/** Why Twilio refused, as an operator can act on it. */
function twilioReason(error: unknown, what: string): string {
  if (!(error instanceof TwilioApiError)) throw error;
  if (error.isAuthFailure) return 'Twilio refused the company’s credentials (its auth token may have changed).';
  if (error.isNotFound) return `Twilio no longer has ${what}.`;
  if (error.timedOut) return 'Twilio did not answer in time; re-point again to retry.';
  return `Twilio could not update ${what}: ${error.message}.`;
}

export async function repointProvider(
  provider: ProviderRecord,
  channels: ChannelRecord[],
  base: string,
  hasTime: () => boolean,
): Promise<RepointOutcome> {
  const outcome: RepointOutcome = { numbers: 0, providerMoved: false, failures: [], complete: true };
  const pending = numbersPointedBy(provider, channels).filter((c) => c.webhookBaseUrl !== base);
  if (!pointingElsewhere(provider, channels, base).provider && pending.length === 0) return outcome;

  let current = provider;
  if (provider.webhookBaseUrl !== base) {
    const recorded = await recordProviderBase(provider, base);
    // Disconnected meanwhile: its numbers went back to their own settings; nothing to re-point.
    if (!recorded) return outcome;
    current = recorded;
    outcome.providerMoved = true;
  }
  const client = await clientFor(current);
  const urls = webhookUrls(base, current.webhookId);

  if (current.twimlAppSid && (current.twimlAppWebhookBaseUrl ?? current.webhookBaseUrl) !== base) {
    try {
      const app = await client.fetchApplication(current.twimlAppSid);
      if (app.voice_url !== urls.outboundVoice) {
        await client.updateApplication(current.twimlAppSid, { VoiceUrl: urls.outboundVoice, VoiceMethod: 'POST' });
      }
      await recordApplicationBase(current, base);
      outcome.providerMoved = true;
    } catch (error) {
      outcome.failures.push({ phoneNumber: null, reason: twilioReason(error, 'the application for outbound calls') });
    }
  }
  if (pending.length === 0) return outcome;

  let numbers: Map<string, TwilioIncomingNumber>;
  try {
    numbers = new Map((await client.listIncomingNumbers()).map((n) => [n.sid, n]));
  } catch (error) {
    const reason = twilioReason(error, 'the account’s numbers');
    outcome.failures.push(...pending.map((c) => ({ phoneNumber: c.identifier, reason })));
    return outcome;
  }

  for (let i = 0; i < pending.length; i += REPOINT_CONCURRENCY) {
    // The first batch goes whatever the time: a pass that runs short still moves something.
    if (i > 0 && !hasTime()) {
      outcome.complete = false;
      return outcome;
    }
    await Promise.all(
      pending.slice(i, i + REPOINT_CONCURRENCY).map(async (channel) => {
        const number = numbers.get(channel.numberSid as string);
        if (!number) {
          outcome.failures.push({ phoneNumber: channel.identifier, reason: 'Twilio no longer has this number in the account.' });
          return;
        }
        const update = numberUpdate(channel, number, current.webhookId, urls);
        if (update === 'changed elsewhere') {
          outcome.failures.push({
            phoneNumber: channel.identifier,
            reason: 'Its URLs were changed outside Switchboard, so they were left as they are.',
          });
          return;
        }
        try {
          if (Object.keys(update).length) await client.updateIncomingNumber(number.sid, update);
        } catch (error) {
          outcome.failures.push({ phoneNumber: channel.identifier, reason: twilioReason(error, 'this number') });
          return;
        }
        if (await recordNumberBase(channel, base)) outcome.numbers += 1;
      }),
    );
  }
  return outcome;
}

/**
 * The number's settings that import pointed at the platform, pointed at `urls`. Only URLs that are
 * the platform's (under any base: they carry the provider's webhook id) are replaced; one the
 * customer changed since import is theirs to keep.
 */
function numberUpdate(
  channel: ChannelRecord,
  number: TwilioIncomingNumber,
  webhookId: string,
  urls: ReturnType<typeof webhookUrls>,
): NumberUpdate | 'changed elsewhere' {
  const wanted = importedSettings(channel.enabled, urls);
  const update: NumberUpdate = {};
  for (const [field, method] of REPOINTED_URLS) {
    const url = wanted[field];
    if (url === undefined) continue;
    const now = numberSetting(number, field);
    if (now === url) continue;
    if (!now.includes(`/${webhookId}/`)) return 'changed elsewhere';
    update[field] = url;
    update[method] = wanted[method] as string;
  }
  return update;
}

/** The URLs a re-point moves, with the method sent along with each. */
const REPOINTED_URLS = [
  ['SmsUrl', 'SmsMethod'],
  ['VoiceUrl', 'VoiceMethod'],
  ['StatusCallback', 'StatusCallbackMethod'],
] as const satisfies readonly (readonly [keyof NumberUpdate, keyof NumberUpdate])[];

/**
 * The new base on the provider and its webhook id in one write, the old one kept as the previous
 * (and as the application's, until it is re-pointed). Undefined when the provider is gone.
 */
async function recordProviderBase(provider: ProviderRecord, base: string): Promise<ProviderRecord | undefined> {
  const TableName = tableName();
  const old = provider.webhookBaseUrl;
  const previous = old ? { ':previous': old } : {};
  const setPrevious = old ? ', previousWebhookBaseUrl = :previous' : '';
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: keys.provider(provider.companyId, provider.id),
              UpdateExpression: `SET webhookBaseUrl = :base${setPrevious}${
                old ? ', twimlAppWebhookBaseUrl = if_not_exists(twimlAppWebhookBaseUrl, :previous)' : ''
              }`,
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':base': base, ...previous },
            },
          },
          {
            Update: {
              TableName,
              Key: keys.webhook(provider.webhookId),
              UpdateExpression: `SET webhookBaseUrl = :base${setPrevious}`,
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':base': base, ...previous },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) return undefined;
    throw error;
  }
  return {
    ...provider,
    webhookBaseUrl: base,
    ...(old && { previousWebhookBaseUrl: old, twimlAppWebhookBaseUrl: provider.twimlAppWebhookBaseUrl ?? old }),
  };
}

async function recordApplicationBase(provider: ProviderRecord, base: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.provider(provider.companyId, provider.id),
        UpdateExpression: 'SET twimlAppWebhookBaseUrl = :base',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':base': base },
      }),
    );
  } catch (error) {
    // Disconnected meanwhile: the application is deleted with it.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The number's record on the new base; false when it was there already (a parallel pass) or is gone. */
async function recordNumberBase(channel: ChannelRecord, base: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.channel(channel.companyId, channel.id),
        UpdateExpression: 'SET webhookBaseUrl = :base',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(webhookBaseUrl) OR webhookBaseUrl <> :base)',
        ExpressionAttributeValues: { ':base': base },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
