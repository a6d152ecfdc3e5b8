import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  COUNTRIES,
  DEFAULT_OUTBOUND_CALLS_PER_MINUTE,
  DEFAULT_RECORDING_DISCLOSURE,
  DEFAULT_TEXT_SEGMENTS_PER_HOUR,
  DEFAULT_VOICEMAIL_GREETING,
} from '../../shared/constants';
import type { Role } from '../../shared/contract/auth';
import type { CallingSettings } from '../../shared/contract/voice';
import { conflict, forbidden } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';

/**
 * Where and how often the company's agents may call out (docs/security.md: Toll fraud).
 * Until an owner or admin narrows them, every country of the dialer is allowed, 30 calls a minute.
 * The company's text segments an hour live here too, beside the call rate they mirror
 * (docs/product.md: Sending limits).
 */

const DIALER_COUNTRIES = COUNTRIES.map((c) => c.code);

export const DEFAULT_CALLING_SETTINGS: CallingSettings = {
  allowedCountries: DIALER_COUNTRIES,
  outboundCallsPerMinute: DEFAULT_OUTBOUND_CALLS_PER_MINUTE,
  textSegmentsPerHour: DEFAULT_TEXT_SEGMENTS_PER_HOUR,
  voicemailGreeting: null,
  recordingDisclosure: null,
  recordPrivateLines: false,
};

interface CallingSettingsItem
  extends Omit<CallingSettings, 'textSegmentsPerHour' | 'recordingDisclosure' | 'recordPrivateLines'>,
    Partial<Pick<CallingSettings, 'recordingDisclosure' | 'recordPrivateLines'>> {
  /** Absent on settings saved before the limit existed: the default. */
  textSegmentsPerHour?: number;
  updatedAt: string;
}

export async function callingSettings(companyId: string): Promise<CallingSettings> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.callingSettings(companyId), ConsistentRead: true }),
  );
  const item = Item as CallingSettingsItem | undefined;
  if (!item) return DEFAULT_CALLING_SETTINGS;
  return {
    allowedCountries: item.allowedCountries,
    outboundCallsPerMinute: item.outboundCallsPerMinute,
    textSegmentsPerHour: item.textSegmentsPerHour ?? DEFAULT_TEXT_SEGMENTS_PER_HOUR,
    voicemailGreeting: item.voicemailGreeting ?? null,
    recordingDisclosure: item.recordingDisclosure ?? null,
    recordPrivateLines: item.recordPrivateLines === true,
  };
}

/** What a caller hears before a recorded call is connected: the company's disclosure, else the default. */
export async function recordingDisclosure(companyId: string): Promise<string> {
  return (await callingSettings(companyId)).recordingDisclosure ?? DEFAULT_RECORDING_DISCLOSURE;
}

/** A greeting as stored: trimmed; blank means the default, stored as null. */
const greetingOf = (text: string | null) => text?.trim() || null;

/** What a caller hears before leaving a voicemail: the company's greeting, else the default. */
export async function voicemailGreeting(companyId: string): Promise<string> {
  return (await callingSettings(companyId)).voicemailGreeting ?? DEFAULT_VOICEMAIL_GREETING;
}

/**
 * Stores new settings: the countries in the dialer's order, once each. The outbound call rate and the
 * company's text segments an hour are the owner's to change; an admin saves them unchanged, and a
 * rate the owner changed meanwhile is not overwritten by an admin's stale form (409).
 */
export async function saveCallingSettings(
  companyId: string,
  role: Role,
  input: Omit<CallingSettings, 'voicemailGreeting' | 'textSegmentsPerHour' | 'recordingDisclosure' | 'recordPrivateLines'> & {
    voicemailGreeting?: string | null;
    textSegmentsPerHour?: number;
    recordingDisclosure?: string | null;
    recordPrivateLines?: boolean;
  },
): Promise<CallingSettings> {
  const chosen = new Set(input.allowedCountries);
  const isOwner = role === 'OWNER';
  // The stored settings: an admin's rates are checked against them, and what is left out stays as it is.
  const stored =
    !isOwner ||
    input.voicemailGreeting === undefined ||
    input.textSegmentsPerHour === undefined ||
    input.recordingDisclosure === undefined ||
    input.recordPrivateLines === undefined
      ? await callingSettings(companyId)
      : undefined;
  const settings: CallingSettings = {
    allowedCountries: DIALER_COUNTRIES.filter((code) => chosen.has(code)),
    outboundCallsPerMinute: input.outboundCallsPerMinute,
    textSegmentsPerHour: input.textSegmentsPerHour ?? stored?.textSegmentsPerHour ?? DEFAULT_TEXT_SEGMENTS_PER_HOUR,
    voicemailGreeting:
      input.voicemailGreeting === undefined ? (stored?.voicemailGreeting ?? null) : greetingOf(input.voicemailGreeting),
    recordingDisclosure:
      input.recordingDisclosure === undefined ? (stored?.recordingDisclosure ?? null) : greetingOf(input.recordingDisclosure),
    recordPrivateLines: input.recordPrivateLines ?? stored?.recordPrivateLines ?? false,
  };
  if (!isOwner && stored?.outboundCallsPerMinute !== settings.outboundCallsPerMinute) {
    throw forbidden('Only the owner can change the outbound call rate.');
  }
  if (!isOwner && stored?.textSegmentsPerHour !== settings.textSegmentsPerHour) {
    throw forbidden('Only the owner can change the company’s text segments an hour.');
  }
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.callingSettings(companyId),
          entity: 'CALLING_SETTINGS',
          ...settings,
          updatedAt: new Date().toISOString(),
        },
        ...(isOwner
          ? {}
          : {
              // A stored item without the segments is at the default.
              ConditionExpression: `attribute_not_exists(PK) OR (outboundCallsPerMinute = :rate AND (textSegmentsPerHour = :segments${
                settings.textSegmentsPerHour === DEFAULT_TEXT_SEGMENTS_PER_HOUR
                  ? ' OR attribute_not_exists(textSegmentsPerHour)'
                  : ''
              }))`,
              ExpressionAttributeValues: {
                ':rate': settings.outboundCallsPerMinute,
                ':segments': settings.textSegmentsPerHour,
              },
            }),
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    throw conflict('The owner changed the company’s rates meanwhile. Reload and try again.');
  }
  return settings;
}
