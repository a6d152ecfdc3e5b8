import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MESSAGING_SERVICE_NUMBERS_SHOWN } from '../../shared/constants';
import type {
  ChannelHealth,
  ChannelHealthStatus,
  HealthChange,
  HealthProblem,
  HealthProblemField,
} from '../../shared/contract/channel-health';
import { newId } from '../auth/opaque-tokens';
import { AppError, badRequest } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { publish } from '../realtime/publish';
import { shownUrl } from '../settings/current-destinations';
import { changedSettings, importedSettings, numberSetting } from '../settings/number-settings';
import type { ChannelHealthRecord, ChannelRecord, ProviderRecord } from '../settings/records';
import { clientFor } from '../settings/twilio-account';
import { webhookUrls } from '../settings/webhook-urls';
import {
  type NumberUpdate,
  TwilioApiError,
  type TwilioClient,
  type TwilioIncomingNumber,
  type TwilioMessagingService,
} from '../twilio/rest-client';
import { deliverySummary } from './delivery-summary';

/**
 * Channel health: whether Twilio still sends a number's calls and texts to this
 * deployment, and putting it right. A check reads the number (IncomingPhoneNumbers/{sid}) and the
 * account's Messaging Services and compares them with what import set (webhook-urls.ts
 * importedSettings, the one rule); a repair sends back what differs. The last check is kept on the
 * channel's item (`health`), and a change of status is pushed to the company.
 */

/** What a repair changed, kept next to the channel (keys.channelRepair). */
export interface ChannelRepairRecord {
  entity: 'CHANNEL_REPAIR';
  companyId: string;
  channelId: string;
  /** The owner or admin who asked. */
  userId: string;
  at: string;
  changes: HealthChange[];
}

/** A Messaging Service of the account with the numbers in it (PN SIDs, and each SID's number). */
export interface AccountService {
  service: TwilioMessagingService;
  numberSids: ReadonlySet<string>;
  phoneNumbers: ReadonlyMap<string, string>;
}

/** The account's Messaging Services with their numbers: one list, then one per service, one after another. */
export async function accountServices(client: TwilioClient): Promise<AccountService[]> {
  const services = await client.listMessagingServices();
  const out: AccountService[] = [];
  for (const service of services) {
    const numbers = await client.listServiceNumbers(service.sid).catch((error) => {
      // Deleted since the list: it holds no number any more.
      if (error instanceof TwilioApiError && error.isNotFound) return [];
      throw error;
    });
    out.push({
      service,
      numberSids: new Set(numbers.map((n) => n.sid)),
      phoneNumbers: new Map(numbers.map((n) => [n.sid, n.phone_number])),
    });
  }
  return out;
}

/** What a check found, with what a repair needs to act on it. */
interface Inspection {
  status: ChannelHealthStatus;
  problems: HealthProblem[];
  /** The number's settings that differ from import's (empty unless DRIFTED). */
  numberUpdate: NumberUpdate;
  /** Services that send the number's texts elsewhere. */
  drifting: AccountService[];
}

/** The number settings a check reports, each with what its difference means to a person. */
const CHECKED_SETTINGS: readonly { field: keyof NumberUpdate & HealthProblemField; effect: (actual: string | null) => string }[] =
  [
    {
      field: 'SmsUrl',
      effect: (actual) =>
        actual
          ? `Twilio sends texts to this number to ${actual} instead of Switchboard, so they do not arrive here.`
          : 'Twilio has no URL for texts to this number, so they do not arrive here.',
    },
    {
      field: 'SmsMethod',
      effect: (actual) =>
        `Twilio sends texts to this number as ${actual ?? 'GET'} instead of POST, which Switchboard does not accept.`,
    },
    {
      field: 'SmsApplicationSid',
      effect: (actual) =>
        `Texts to this number are handled by the TwiML application ${actual}, which outranks the number's own URL, so they do not arrive here.`,
    },
    {
      field: 'VoiceUrl',
      effect: (actual) =>
        actual
          ? `Twilio sends calls to this number to ${actual} instead of Switchboard, so they do not ring here.`
          : 'Twilio has no URL for calls to this number, so they do not ring here.',
    },
    {
      field: 'VoiceMethod',
      effect: (actual) =>
        `Twilio sends calls to this number as ${actual ?? 'GET'} instead of POST, which Switchboard does not accept.`,
    },
    {
      field: 'VoiceApplicationSid',
      effect: (actual) =>
        `Calls to this number are handled by the TwiML application ${actual}, which outranks the number's own URL, so they do not ring here.`,
    },
    {
      field: 'StatusCallback',
      effect: (actual) =>
        actual
          ? `Twilio reports how calls end to ${actual} instead of Switchboard, so finished calls are not recorded here.`
          : 'Twilio reports how calls end to nowhere, so finished calls are not recorded here.',
    },
  ];

/** A setting as a person may see it: URLs without credentials or query, '' as none. */
function shown(field: keyof NumberUpdate, value: string | undefined): string | null {
  if (!value) return null;
  return field.endsWith('Url') || field === 'StatusCallback' ? shownUrl(value) : value;
}

/** The base the number's URLs are on: recorded on it at import (or re-point), else the provider's. */
const expectedUrls = (provider: ProviderRecord, channel: ChannelRecord) =>
  webhookUrls(channel.webhookBaseUrl ?? provider.webhookBaseUrl ?? '', provider.webhookId);

/** Checks one channel's number in Twilio. Throws only what is not Twilio's answer. */
export async function inspectChannel(
  provider: ProviderRecord,
  channel: ChannelRecord,
  client: TwilioClient,
  services: () => Promise<AccountService[]> = () => accountServices(client),
): Promise<Inspection> {
  const nothing = { numberUpdate: {}, drifting: [] };
  let number: TwilioIncomingNumber;
  let inServices: AccountService[];
  try {
    number = await client.fetchIncomingNumber(channel.numberSid as string);
  } catch (error) {
    if (!(error instanceof TwilioApiError)) throw error;
    return { ...nothing, ...unanswered(error, channel, 'number') };
  }
  try {
    inServices = channel.enabled.sms ? (await services()).filter((s) => s.numberSids.has(number.sid)) : [];
  } catch (error) {
    if (!(error instanceof TwilioApiError)) throw error;
    return { ...nothing, ...unanswered(error, channel, 'services') };
  }

  const urls = expectedUrls(provider, channel);
  const wanted = importedSettings(channel.enabled, urls);
  const problems: HealthProblem[] = [];
  for (const { field, effect } of CHECKED_SETTINGS) {
    const expected = wanted[field];
    if (expected === undefined || numberSetting(number, field) === expected) continue;
    const actual = shown(field, numberSetting(number, field));
    problems.push({ field, expected: shown(field, expected), actual, message: effect(actual), repairable: true });
  }
  const drifting = inServices.filter(
    ({ service }) => !service.use_inbound_webhook_on_number && service.inbound_request_url !== urls.sms,
  );
  for (const entry of drifting) problems.push(serviceProblem(entry, number));

  return {
    status: problems.length ? 'DRIFTED' : 'HEALTHY',
    problems,
    numberUpdate: changedSettings(number, wanted),
    drifting,
  };
}

function serviceProblem({ service, numberSids, phoneNumbers }: AccountService, number: TwilioIncomingNumber): HealthProblem {
  const url = shownUrl(service.inbound_request_url);
  const others = numberSids.size - 1;
  const otherPhoneNumbers = [...phoneNumbers]
    .filter(([sid]) => sid !== number.sid)
    .map(([, phoneNumber]) => phoneNumber)
    .sort()
    .slice(0, MESSAGING_SERVICE_NUMBERS_SHOWN);
  return {
    field: 'MessagingService',
    expected: 'UseInboundWebhookOnNumber: true',
    actual: service.sid,
    messagingService: {
      sid: service.sid,
      friendlyName: service.friendly_name,
      inboundRequestUrl: url,
      otherNumbers: others,
      otherPhoneNumbers,
    },
    message: `${number.phone_number} is in the Messaging Service “${service.friendly_name}” (${service.sid}), which sends incoming texts ${
      url ? `to ${url}` : 'nowhere'
    } instead of to the number’s own URL, so texts to it do not arrive here.`,
    repairable: true,
  };
}

/**
 * Twilio did not answer what was asked: the number is gone, the credentials refused, or no (good)
 * answer. Only the number's own 404 means it is gone; the Messaging Services' failures are Twilio's.
 */
function unanswered(
  error: TwilioApiError,
  channel: ChannelRecord,
  asked: 'number' | 'services',
): Pick<Inspection, 'status' | 'problems'> {
  if (error.isNotFound && asked === 'number') {
    return {
      status: 'NUMBER_GONE',
      problems: [
        {
          field: 'PhoneNumber',
          expected: channel.identifier,
          actual: null,
          message: `${channel.identifier} is no longer in this Twilio account (released, or moved to another account), so its calls and texts cannot reach Switchboard.`,
          repairable: false,
        },
      ],
    };
  }
  if (error.isAuthFailure) {
    return {
      status: 'CREDENTIALS_REFUSED',
      problems: [
        {
          field: 'Credentials',
          expected: null,
          actual: null,
          message:
            'Twilio refused the company’s credentials (the auth token may have changed), so the number cannot be checked; connect the Twilio account again.',
          repairable: false,
        },
      ],
    };
  }
  const answered = error.status ? ` (Twilio answered ${error.status}${error.code ? `, error ${error.code}` : ''})` : '';
  return {
    status: 'PROVIDER_UNREACHABLE',
    problems: [
      {
        field: 'Provider',
        expected: null,
        actual: null,
        message: error.timedOut
          ? 'Twilio did not answer in time, so the number could not be checked; it is checked again later.'
          : `Twilio could not be asked about the number${asked === 'services' ? '’s Messaging Services' : ''}${answered}; it is checked again later.`,
        repairable: false,
      },
    ],
  };
}

/** The channel's health as the API answers it: the last check (UNCHECKED when none) and the delivery summary. */
export async function channelHealthOf(channel: ChannelRecord, now = new Date()): Promise<ChannelHealth> {
  const stored = channel.health;
  return {
    status: stored?.status ?? 'UNCHECKED',
    checkedAt: stored?.checkedAt ?? null,
    problems: stored?.problems ?? [],
    delivery: await deliverySummary(channel.companyId, channel.id, now),
  };
}

/** Whether a channel has a number in Twilio to check: an active phone channel imported through a provider. */
export const isCheckable = (channel: ChannelRecord) =>
  channel.status === 'ACTIVE' && channel.type === 'PHONE' && Boolean(channel.providerId && channel.numberSid);

/**
 * Keeps a check's outcome on the channel, unless a later check is kept already, and tells the company
 * when the status changed. Answers the channel as it is now.
 */
export async function recordHealth(
  channel: ChannelRecord,
  inspection: Pick<Inspection, 'status' | 'problems'>,
): Promise<ChannelRecord> {
  const health: ChannelHealthRecord = {
    status: inspection.status,
    checkedAt: new Date().toISOString(),
    problems: inspection.problems,
  };
  let before: ChannelRecord;
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.channel(channel.companyId, channel.id),
        UpdateExpression: 'SET health = :health',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(health) OR health.checkedAt <= :at)',
        ExpressionAttributeValues: { ':health': health, ':at': health.checkedAt },
        ReturnValues: 'ALL_OLD',
      }),
    );
    before = Attributes as ChannelRecord;
  } catch (error) {
    // Deleted meanwhile, or a later check is kept: this one is news to nobody.
    if (error instanceof ConditionalCheckFailedException) return { ...channel, health };
    throw error;
  }
  if (before.health?.status !== health.status) {
    await publish(channel.companyId, {
      type: 'channel_health_changed',
      data: { channelId: channel.id, health: { status: health.status, checkedAt: health.checkedAt } },
    });
  }
  return { ...before, health };
}

/** Checks a channel in Twilio now and keeps the outcome. */
export async function checkChannel(
  provider: ProviderRecord,
  channel: ChannelRecord,
  client?: TwilioClient,
  services?: () => Promise<AccountService[]>,
): Promise<ChannelRecord> {
  const twilio = client ?? (await clientFor(provider));
  return recordHealth(channel, await inspectChannel(provider, channel, twilio, services));
}

/** Why a repair could not be made, as the caller can act on it; the kept health stays as it was. */
function repairRefused(error: unknown, what: string): never {
  if (!(error instanceof TwilioApiError)) throw error;
  if (error.isAuthFailure) {
    throw new AppError(
      409,
      'PROVIDER_AUTH_FAILED',
      `Twilio refused the company’s credentials, so ${what} could not be repaired. Connect the Twilio account again.`,
    );
  }
  if (error.isNotFound) {
    throw new AppError(409, 'CONFLICT', `Twilio no longer has ${what}, so it could not be repaired.`);
  }
  if (error.timedOut) {
    throw new AppError(
      504,
      'PROVIDER_TIMEOUT',
      `Twilio did not answer in time, so ${what} may not be repaired. Please try again.`,
    );
  }
  const answered = error.status ? ` (Twilio answered ${error.status}${error.code ? `, error ${error.code}` : ''})` : '';
  throw new AppError(502, 'PROVIDER_UNAVAILABLE', `Twilio refused to repair ${what}: ${error.message}${answered}.`);
}

/** A check that found Twilio unable to answer, as a repair's refusal. */
function inspectionRefused(inspection: Inspection, channel: ChannelRecord): never {
  const message = inspection.problems[0]?.message ?? 'Twilio could not be asked about the number.';
  if (inspection.status === 'CREDENTIALS_REFUSED') throw new AppError(409, 'PROVIDER_AUTH_FAILED', message);
  if (inspection.status === 'NUMBER_GONE') throw new AppError(409, 'CONFLICT', message);
  throw new AppError(502, 'PROVIDER_UNAVAILABLE', `${channel.identifier} could not be repaired: ${message}`);
}

/**
 * A Messaging Service's setting is not the number's alone: changing it changes how its other numbers'
 * texts arrive, which someone may rely on. So the person who asks must have been shown the service and
 * its numbers, and said yes (docs/product.md §10.7); as found now, not as the page last saw it.
 */
function serviceUnconfirmed(inspection: Inspection, channel: ChannelRecord): never {
  const services = inspection.problems.flatMap((p) => (p.messagingService ? [p.messagingService] : []));
  const named = services
    .map((s) => `“${s.friendlyName}” (${s.sid}, with ${s.otherNumbers} other number${s.otherNumbers === 1 ? '' : 's'})`)
    .join(' and ');
  throw badRequest(
    `${channel.identifier} is in the Messaging Service ${named}: repairing it changes how texts reach the service’s other numbers too. Confirm that to repair it.`,
    { fields: { confirmMessagingService: 'Confirm the change to the Messaging Service' }, messagingServices: services },
  );
}

/** The changes a repair makes, in words, from what the check found. */
function describeChanges(inspection: Inspection): HealthChange[] {
  return inspection.problems
    .filter((p) => p.repairable)
    .map((p) => {
      const service = p.messagingService;
      if (service) {
        const others = `${service.otherNumbers} other number${service.otherNumbers === 1 ? '' : 's'}`;
        return {
          field: p.field,
          from: 'UseInboundWebhookOnNumber: false',
          to: 'UseInboundWebhookOnNumber: true',
          message: `The Messaging Service “${service.friendlyName}” (${service.sid}) now sends each number’s incoming texts to that number’s own URL. This also affects its ${others}: their texts no longer go to ${service.inboundRequestUrl ?? 'the service’s URL'} either.`,
        };
      }
      return {
        field: p.field,
        from: p.actual,
        to: p.expected,
        message:
          p.expected === null
            ? `${p.field} cleared (was ${p.actual}).`
            : `${p.field} set back to ${p.expected} (was ${p.actual ?? 'empty'}).`,
      };
    });
}

/**
 * Puts right what a check finds repairable: the number's settings back to import's, and each
 * Messaging Service that sends its texts elsewhere set to use the number's own URL. Idempotent: a
 * healthy number changes nothing. Twilio refusing any of it answers why and keeps the health as it was.
 */
export async function repairChannel(
  provider: ProviderRecord,
  channel: ChannelRecord,
  userId: string,
  confirmed: { messagingService: boolean },
): Promise<{ channel: ChannelRecord; changes: HealthChange[] }> {
  const client = await clientFor(provider);
  const found = await inspectChannel(provider, channel, client);
  if (found.status !== 'HEALTHY' && found.status !== 'DRIFTED') inspectionRefused(found, channel);
  if (found.drifting.length > 0 && !confirmed.messagingService) serviceUnconfirmed(found, channel);
  const changes = describeChanges(found);
  if (changes.length === 0) return { channel: await recordHealth(channel, found), changes };

  if (Object.keys(found.numberUpdate).length) {
    await client
      .updateIncomingNumber(channel.numberSid as string, found.numberUpdate)
      .catch((error) => repairRefused(error, channel.identifier));
  }
  for (const { service } of found.drifting) {
    await client
      .updateMessagingService(service.sid, { UseInboundWebhookOnNumber: 'true' })
      .catch((error) => repairRefused(error, `the Messaging Service ${service.sid}`));
  }
  const at = new Date().toISOString();
  const audit: ChannelRepairRecord = {
    entity: 'CHANNEL_REPAIR',
    companyId: channel.companyId,
    channelId: channel.id,
    userId,
    at,
    changes,
  };
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.channelRepair(channel.companyId, channel.id, at, newId()), ...audit },
    }),
  );
  return { channel: await checkChannel(provider, channel, client), changes };
}
