import * as z from 'zod/mini';
import {
  COUNTRIES,
  MAX_OUTBOUND_CALLS_PER_MINUTE,
  MAX_RECORDING_DISCLOSURE_LENGTH,
  MAX_TEXT_SEGMENTS_PER_HOUR,
  MAX_VOICEMAIL_GREETING_LENGTH,
  MIN_TEXT_SEGMENTS_PER_HOUR,
} from '../constants';
import { httpContract, MANAGERS } from './route';

/** Company settings and calling (docs/product.md §3 Company, Caller ID, Voice token; §7.4). */

/**
 * Where and how often the company's agents may call out (toll fraud): countries of the
 * dialer's list (all of them until narrowed), in the dialer's order; outbound calls a minute, company-wide.
 */
export const CallingSettingsSchema = z.object({
  allowedCountries: z.array(z.string()),
  outboundCallsPerMinute: z.number(),
  /** Text segments the whole company may send an hour (docs/product.md: Sending limits); the owner's to change. */
  textSegmentsPerHour: z.number(),
  /** What a caller hears before leaving a voicemail; null: DEFAULT_VOICEMAIL_GREETING. */
  voicemailGreeting: z.nullable(z.string()),
  /** What a caller hears before a recorded call is connected; null: DEFAULT_RECORDING_DISCLOSURE. */
  recordingDisclosure: z.nullable(z.string()),
  /** Calls to and from numbers routed to a member (private lines) are recorded (docs/product.md: Call recording). */
  recordPrivateLines: z.boolean(),
});
export type CallingSettings = z.infer<typeof CallingSettingsSchema>;

export const CompanySettingsSchema = z.object({
  /** The country the dialer starts with: that of the company's first imported number, else US. */
  default_country_code: z.object({ code: z.string() }),
  calling: CallingSettingsSchema,
});
export type CompanySettings = z.infer<typeof CompanySettingsSchema>;

const DIALER_COUNTRY_CODES = new Set(COUNTRIES.map((c) => c.code));

const dialerCountry = z.string('Countries are country codes such as US').check(
  z.trim(),
  z.toUpperCase(),
  z.refine((code) => DIALER_COUNTRY_CODES.has(code), {
    error: (issue) => `${String(issue.input).slice(0, 10)} is not one of the dialer’s countries`,
  }),
);

const segmentsPerHourRange = `Text segments an hour must be between ${MIN_TEXT_SEGMENTS_PER_HOUR.toLocaleString('en-US')} and ${MAX_TEXT_SEGMENTS_PER_HOUR.toLocaleString('en-US')}`;

/** Owners and admins narrow the countries; only the owner changes the rates (the handler checks it). */
export const updateCallingSettings = httpContract({
  method: 'PUT',
  path: '/api/v1/company/settings/calling',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({
    allowedCountries: z
      .array(dialerCountry, 'Allowed countries must be a list of country codes')
      .check(
        z.minLength(1, 'Choose at least one country'),
        z.maxLength(COUNTRIES.length, `Choose at most ${COUNTRIES.length} countries`),
      ),
    outboundCallsPerMinute: z
      .number('Calls a minute must be a number')
      .check(
        z.int('Calls a minute must be a whole number'),
        z.minimum(1, `Calls a minute must be between 1 and ${MAX_OUTBOUND_CALLS_PER_MINUTE}`),
        z.maximum(MAX_OUTBOUND_CALLS_PER_MINUTE, `Calls a minute must be between 1 and ${MAX_OUTBOUND_CALLS_PER_MINUTE}`),
      ),
    /** Absent: unchanged. */
    textSegmentsPerHour: z.optional(
      z
        .number('Text segments an hour must be a number')
        .check(
          z.int('Text segments an hour must be a whole number'),
          z.minimum(MIN_TEXT_SEGMENTS_PER_HOUR, segmentsPerHourRange),
          z.maximum(MAX_TEXT_SEGMENTS_PER_HOUR, segmentsPerHourRange),
        ),
    ),
    /** Absent: unchanged; null or blank: the default greeting. */
    voicemailGreeting: z.optional(
      z.nullable(
        z
          .string('Voicemail greeting must be text')
          .check(
            z.maxLength(
              MAX_VOICEMAIL_GREETING_LENGTH,
              `Voicemail greeting can be at most ${MAX_VOICEMAIL_GREETING_LENGTH} characters`,
            ),
          ),
      ),
    ),
    /** Absent: unchanged; null or blank: the default disclosure. */
    recordingDisclosure: z.optional(
      z.nullable(
        z
          .string('Recording disclosure must be text')
          .check(
            z.maxLength(
              MAX_RECORDING_DISCLOSURE_LENGTH,
              `Recording disclosure can be at most ${MAX_RECORDING_DISCLOSURE_LENGTH} characters`,
            ),
          ),
      ),
    ),
    /** Absent: unchanged. */
    recordPrivateLines: z.optional(z.boolean('Record calls to private lines must be true or false')),
  }),
  response: z.object({ calling: CallingSettingsSchema }),
});

export const companySettings = httpContract({
  method: 'GET',
  path: '/api/v1/company/settings',
  auth: 'user',
  response: z.object({ settings: CompanySettingsSchema }),
});

export const CallerIdSchema = z.object({
  phoneNumber: z.string(),
  /** null for a number routed to the user directly. */
  inboxName: z.nullable(z.string()),
  channelId: z.string(),
});
export type CallerId = z.infer<typeof CallerIdSchema>;

export const listCallerIds = httpContract({
  method: 'GET',
  path: '/api/v1/voice/caller-ids',
  auth: 'user',
  response: z.object({ callerIds: z.array(CallerIdSchema) }),
});

export const voiceToken = httpContract({
  method: 'POST',
  path: '/api/v1/voice/token',
  auth: 'user',
  response: z.object({ token: z.string() }),
});

/**
 * Twilio's voice webhooks (auth `twilio`): the body is Twilio's form parameters (only those the
 * product reads are listed; Twilio sends more); answers are TwiML.
 * https://www.twilio.com/docs/usage/webhooks/voice-webhooks
 */
const callSid = (name: string) =>
  z.string({ error: `${name} is required` }).check(z.regex(/^CA[0-9a-f]{32}$/i, `${name} is not a Twilio call SID`));
/** A recording's SID (RE…); the contract branch checked it as a call's. */
const recordingSid = (name: string) =>
  z.string({ error: `${name} is required` }).check(z.regex(/^RE[0-9a-f]{32}$/i, `${name} is not a Twilio recording SID`));
const party = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .check(z.minLength(1, `${name} is required`), z.maxLength(128, `${name} is too long`));
const seconds = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .check(z.int(`${name} must be whole seconds`), z.minimum(0, `${name} must be at least 0`));
const word = (name: string) =>
  z.string({ error: `${name} is required` }).check(z.minLength(1, `${name} is required`), z.maxLength(32, `${name} is too long`));

/** A phone calls one of the company's numbers (the number's VoiceUrl). */
export const inboundCallWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice',
  auth: 'twilio',
  body: z.object({ CallSid: callSid('CallSid'), From: party('From'), To: party('To') }),
});

/** Progress of a call (the number's StatusCallback) or of one of its Dial legs (ParentCallSid). */
export const callStatusWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/status',
  auth: 'twilio',
  body: z.object({
    CallSid: callSid('CallSid'),
    ParentCallSid: z.optional(callSid('ParentCallSid')),
    CallStatus: word('CallStatus'),
    CallDuration: z.optional(seconds('CallDuration')),
    To: z.optional(party('To')),
  }),
});

/** The end of an inbound call's ring-all `<Dial>` (its action). */
export const dialResultWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/dial-result',
  auth: 'twilio',
  body: z.object({
    CallSid: callSid('CallSid'),
    DialCallStatus: word('DialCallStatus'),
    DialCallDuration: z._default(seconds('DialCallDuration'), 0),
  }),
});

/** A browser calls out (the TwiML application's VoiceUrl): From is the chosen caller ID, Caller the client. */
export const outboundCallWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/outbound',
  auth: 'twilio',
  body: z.object({
    CallSid: callSid('CallSid'),
    Caller: party('Caller'),
    From: z._default(z.string().check(z.maxLength(128, 'From is too long')), ''),
    To: z._default(z.string().check(z.maxLength(128, 'To is too long')), ''),
  }),
});

/**
 * The end of a voicemail's `<Record>` (its action): the caller has finished; the call hangs
 * up. The recording itself arrives by `recordingStatusWebhook`.
 */
export const voicemailRecordedWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/voicemail',
  auth: 'twilio',
  body: z.object({
    CallSid: callSid('CallSid'),
    RecordingSid: z.optional(recordingSid('RecordingSid')),
    RecordingDuration: z.optional(seconds('RecordingDuration')),
  }),
});

/**
 * Twilio's recordingStatusCallback for a voicemail: `completed` with the recording's URL
 * and length (idempotent: Twilio may send it again), or `absent` / `failed`. A call recording's
 * (docs/product.md: Call recording) comes here too, its call named by the URL's `callSid`.
 * https://www.twilio.com/docs/voice/twiml/record#recordingstatuscallback
 */
export const recordingStatusWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/recording',
  auth: 'twilio',
  body: z.object({
    CallSid: callSid('CallSid'),
    RecordingSid: recordingSid('RecordingSid'),
    RecordingUrl: z.string({ error: 'RecordingUrl is required' }).check(z.maxLength(1000, 'RecordingUrl is too long')),
    RecordingStatus: word('RecordingStatus'),
    RecordingDuration: z.optional(seconds('RecordingDuration')),
  }),
});
