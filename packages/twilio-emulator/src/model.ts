import { randomBytes } from 'node:crypto';
import type { Clock } from './clock';

/** What the emulator keeps: plain data, saved as JSON. Dates are ISO strings; Twilio's RFC 2822 is for output. */
export type WebhookMethod = 'GET' | 'POST';

export interface NumberCapabilities {
  voice: boolean;
  sms: boolean;
  mms: boolean;
  fax: boolean;
}

export interface PhoneNumberRecord {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  capabilities: NumberCapabilities;
  voiceUrl: string;
  voiceMethod: WebhookMethod;
  voiceFallbackUrl: string;
  voiceFallbackMethod: WebhookMethod;
  statusCallback: string;
  statusCallbackMethod: WebhookMethod;
  voiceApplicationSid: string;
  smsUrl: string;
  smsMethod: WebhookMethod;
  smsFallbackUrl: string;
  smsFallbackMethod: WebhookMethod;
  smsApplicationSid: string;
  dateCreated: string;
  dateUpdated: string;
}

export interface ApplicationRecord {
  sid: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: WebhookMethod;
  voiceFallbackUrl: string;
  voiceFallbackMethod: WebhookMethod;
  statusCallback: string;
  statusCallbackMethod: WebhookMethod;
  smsUrl: string;
  smsMethod: WebhookMethod;
  smsFallbackUrl: string;
  smsFallbackMethod: WebhookMethod;
  smsStatusCallback: string;
  messageStatusCallback: string;
  dateCreated: string;
  dateUpdated: string;
}

export interface ApiKeyRecord {
  sid: string;
  friendlyName: string;
  secret: string;
  dateCreated: string;
  dateUpdated: string;
}

/**
 * A Messaging Service (messaging.twilio.com/v1): its settings as Twilio names them, and the account's
 * numbers in its sender pool. A number is in one service at most.
 */
export interface MessagingServiceRecord {
  sid: string;
  friendlyName: string;
  /** '' when unset (Twilio's null). */
  inboundRequestUrl: string;
  inboundMethod: WebhookMethod;
  fallbackUrl: string;
  fallbackMethod: WebhookMethod;
  statusCallback: string;
  stickySender: boolean;
  mmsConverter: boolean;
  smartEncoding: boolean;
  scanMessageContent: 'inherit' | 'enable' | 'disable';
  fallbackToLongCode: boolean;
  areaCodeGeomatch: boolean;
  validityPeriod: number;
  synchronousValidation: boolean;
  usecase: string;
  /** True: texts to its numbers go to each number's SmsUrl; false: to the service's InboundRequestUrl. */
  useInboundWebhookOnNumber: boolean;
  /** The sender pool's phone numbers, oldest first. */
  phoneNumbers: { sid: string; dateCreated: string; dateUpdated: string }[];
  dateCreated: string;
  dateUpdated: string;
}

/** The Messaging Service whose sender pool holds a number, if any. */
export function messagingServiceOf(account: AccountRecord, phoneNumberSid: string): MessagingServiceRecord | undefined {
  return account.messagingServices.find((s) => s.phoneNumbers.some((n) => n.sid === phoneNumberSid));
}

export interface AccountRecord {
  sid: string;
  authToken: string;
  friendlyName: string;
  /** The account named by EMULATOR_TWILIO_ACCOUNT_SID, seeded at first start and by reset. */
  demo: boolean;
  dateCreated: string;
  dateUpdated: string;
  numbers: PhoneNumberRecord[];
  applications: ApplicationRecord[];
  keys: ApiKeyRecord[];
  /** Texts sent and received through the account's numbers, oldest first. */
  messages: MessageRecord[];
  /** Phones that texted STOP to one of the account's numbers (and not START since). */
  optOuts: OptOutRecord[];
  /** Calls and their child legs, oldest first. */
  calls: CallRecord[];
  /** Messaging Services, oldest first. */
  messagingServices: MessagingServiceRecord[];
  /** Recordings made by `<Record>` and by the Call Recordings API, oldest first. */
  recordings: RecordingRecord[];
  /** Conferences (`<Dial><Conference>` and the Participants resource), oldest first. */
  conferences: ConferenceRecord[];
}

export type MessageDirection = 'inbound' | 'outbound-api';

/** Twilio's message statuses the emulator uses (no Messaging Service, so no accepted/scheduled). */
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'received';

/** One request the emulator made to the product: a status callback or an inbound webhook. */
export interface WebhookAttempt {
  url: string;
  method: WebhookMethod;
  /** The message status it reported (status callbacks). */
  messageStatus?: MessageStatus;
  /** The HTTP status it was answered with; null when no answer came (refused, timed out). */
  status: number | null;
  /** The start of the answer's body, or why there was none. */
  body: string;
  at: string;
}

export interface MessageRecord {
  sid: string;
  direction: MessageDirection;
  from: string;
  to: string;
  body: string;
  status: MessageStatus;
  numSegments: number;
  errorCode: number | null;
  errorMessage: string | null;
  /** The StatusCallback it was created with, exactly as given (query string included). */
  statusCallback: string;
  dateCreated: string;
  dateUpdated: string;
  dateSent: string | null;
  /** Status callbacks posted for it (outbound). */
  callbacks: WebhookAttempt[];
  /** Deliveries of the incoming-message webhook (inbound). */
  webhooks: WebhookAttempt[];
  /**
   * Pictures and files it carries, in order: an inbound MMS's, whose content is made from the SID; an
   * outbound one's, fetched from its `mediaUrls` when it sends (their bytes in EmulatorStore.mediaBytes).
   */
  media: MediaRecord[];
  /** An outbound MMS: the MediaUrl parameters it was created with, fetched when it sends, as Twilio does. */
  mediaUrls?: string[];
}

/** A Media resource of a message (`ME…`). https://www.twilio.com/docs/messaging/api/media-resource */
export interface MediaRecord {
  sid: string;
  contentType: string;
  /** An outbound MMS's: the MediaUrl it was fetched from, and how many bytes came. */
  sourceUrl?: string;
  size?: number;
  dateCreated: string;
  dateUpdated: string;
}

export interface OptOutRecord {
  /** The account's number. */
  number: string;
  /** The outside phone that opted out. */
  phone: string;
}

/** Twilio's call statuses. https://www.twilio.com/docs/voice/api/call-resource#call-status-values */
export type CallStatus =
  | 'queued'
  | 'initiated'
  | 'ringing'
  | 'in-progress'
  | 'completed'
  | 'busy'
  | 'no-answer'
  | 'failed'
  | 'canceled';

/** `inbound` reached an account's number or application; `outbound-dial` is a child leg made by `<Dial>`. */
export type CallDirection = 'inbound' | 'outbound-api' | 'outbound-dial';

/** The call progress events a status callback can subscribe to. */
export type CallEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

/** A TwiML document the emulator requested for a call: the Voice URL, its fallback, or a `<Dial action>`. */
export interface TwimlRequest extends WebhookAttempt {
  purpose: 'voice-url' | 'voice-fallback-url' | 'dial-action' | 'record-action' | 'redirect';
  params: Record<string, string>;
}

/** A status callback posted for a call. */
export interface CallCallback extends WebhookAttempt {
  event: CallEvent;
  callStatus: CallStatus;
  params: Record<string, string>;
}

export interface CallRecord {
  sid: string;
  /** The call whose `<Dial>` made this leg; null for a call of its own. */
  parentCallSid: string | null;
  direction: CallDirection;
  /** A number in E.164, or `client:{identity}` for a Voice SDK client. */
  from: string;
  to: string;
  status: CallStatus;
  /** The account's number that was called (inbound from a phone). */
  phoneNumberSid: string | null;
  /** The TwiML application that answered a Voice SDK client's call. */
  applicationSid: string | null;
  dateCreated: string;
  dateUpdated: string;
  startTime: string | null;
  /** When it was answered: its duration counts from here. */
  answeredAt: string | null;
  endTime: string | null;
  /** Who picked up, as the emulator's controls named them (not Twilio's answered_by, which is machine detection). */
  answeredBy: string | null;
  /** Custom parameters: a client's `params` for its own call, or the `<Parameter>`s a `<Client>` leg carries. */
  parameters: Record<string, string>;
  statusCallback: string;
  statusCallbackMethod: WebhookMethod;
  statusCallbackEvents: CallEvent[];
  /** Every TwiML document requested for it, with what came back. */
  twiml: TwimlRequest[];
  callbacks: CallCallback[];
  /** What its `<Say>` verbs said, in order. */
  said: string[];
  /** Digits its party pressed. */
  digits: { digits: string; at: string }[];
  /** Twilio's debugger notifications for it (11200 HTTP retrieval failure, 12100 document parse failure…). */
  errors: { code: number; message: string; at: string }[];
}

/**
 * A Recording (`RE…`) made by `<Record>`: its audio is a WAV of `durationSeconds` made on request.
 * https://www.twilio.com/docs/voice/api/recording
 */
export interface RecordingRecord {
  sid: string;
  callSid: string;
  /** `paused` and `stopped` only for a recording of the Call Recordings API. */
  status: 'in-progress' | 'paused' | 'stopped' | 'completed' | 'absent';
  durationSeconds: number;
  errorCode: number | null;
  startTime: string;
  dateCreated: string;
  dateUpdated: string;
  /** Whether `<Record playBeep>` asked for the beep before it. */
  playBeep: boolean;
  /** The recording status callbacks posted for it. */
  callbacks: (WebhookAttempt & { event: string })[];
  /** Set on a recording started through the Call Recordings API (absent: `<Record>`'s). */
  api?: CallRecordingRecord;
}

/**
 * What the Call Recordings API adds to a recording: how it was asked for, and its stretches on the
 * clock, each recording or paused (a paused stretch is silence in the audio, or left out with
 * PauseBehavior `skip`). https://www.twilio.com/docs/voice/api/recording#create-a-recording-resource
 */
export interface CallRecordingRecord {
  channels: 1 | 2;
  track: 'inbound' | 'outbound' | 'both';
  callback: { url: string; method: WebhookMethod; events: string[] } | null;
  /** Milliseconds on the emulator's clock; `to` null while the stretch goes on; `spokenMs` added by the `speak` control. */
  stretches: { from: number; to: number | null; paused: boolean; skip: boolean; spokenMs?: number }[];
}

/** The conference events a `statusCallbackEvent` can name. https://www.twilio.com/docs/voice/twiml/conference#attributes-statusCallbackEvent */
export type ConferenceEvent = 'start' | 'end' | 'join' | 'leave' | 'mute' | 'hold';

/**
 * A Conference (`CF…`): made by the first participant to join a name no conference under way has,
 * `init` until a participant with startConferenceOnEnter joins, `completed` once it ends.
 * https://www.twilio.com/docs/voice/api/conference-resource
 */
export interface ConferenceRecord {
  sid: string;
  friendlyName: string;
  status: 'init' | 'in-progress' | 'completed';
  dateCreated: string;
  dateUpdated: string;
  reasonConferenceEnded: string | null;
  callSidEndingConference: string | null;
  /** Set by the first participant that names one. */
  statusCallback: string;
  statusCallbackMethod: WebhookMethod;
  statusCallbackEvents: ConferenceEvent[];
  participants: ParticipantRecord[];
  /** The conference status callbacks posted, in order. */
  callbacks: (WebhookAttempt & { event: string; params: Record<string, string> })[];
}

/**
 * A call in a conference (the Participant resource, keyed by its call's SID), with what it was played
 * outside the mix: its beep, the wait and hold TwiML fetched for it, announcements.
 * https://www.twilio.com/docs/voice/api/conference-participant-resource
 */
export interface ParticipantRecord {
  callSid: string;
  label: string | null;
  status: 'queued' | 'connecting' | 'ringing' | 'connected' | 'complete' | 'failed';
  muted: boolean;
  hold: boolean;
  holdUrl: string;
  holdMethod: WebhookMethod;
  waitUrl: string;
  waitMethod: WebhookMethod;
  beep: boolean;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  dateCreated: string;
  dateUpdated: string;
  /** What the participant heard besides the others: `beep`, `wait-music`, `hold-music`, `Play <url>`, `Say <text>`. */
  heard: { what: string; at: string }[];
}

export interface EmulatorState {
  version: 1;
  accounts: AccountRecord[];
  /** How many numbers have been handed to accounts created through /_emulator/accounts. */
  numbersAllocated: number;
}

export interface DemoCredentials {
  accountSid: string;
  authToken: string;
}

/** A Twilio SID: two-letter prefix and 32 lowercase hex digits. */
export function newSid(prefix: 'AC' | 'PN' | 'AP' | 'SK' | 'SM' | 'MM' | 'ME' | 'CA' | 'MG' | 'RE' | 'CF'): string {
  return prefix + randomBytes(16).toString('hex');
}

export function newAuthToken(): string {
  return randomBytes(16).toString('hex');
}

/** API key secrets look like Twilio's: 32 letters and digits. */
export function newKeySecret(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(32)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

/** Twilio's date format, e.g. `Sat, 21 Nov 2026 10:00:00 +0000`. */
export function rfc2822(iso: string): string {
  return new Date(iso).toUTCString().replace('GMT', '+0000');
}

/** ISO 8601 without fractions, as Twilio's v1 APIs write dates, e.g. `2026-11-21T10:00:00Z`. */
export function iso8601(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The clock's time in whole seconds, as Twilio's dates carry no more. */
export function now(clock: Clock): string {
  return new Date(Math.floor(clock.now() / 1000) * 1000).toISOString();
}
