import { randomBytes } from 'node:crypto';

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
}

export interface OptOutRecord {
  /** The account's number. */
  number: string;
  /** The outside phone that opted out. */
  phone: string;
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
export function newSid(prefix: 'AC' | 'PN' | 'AP' | 'SK' | 'SM'): string {
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

/** Whole seconds, as Twilio's dates carry no more. */
export function now(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
}
