import { stack } from './api';

/** A Twilio account of the emulator, as the customer would paste it into Connect. */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  numbers: {
    sid: string;
    phone_number: string;
    friendly_name: string;
    capabilities: { voice: boolean; sms: boolean; mms: boolean };
  }[];
}

const emulator = () => stack().urls.twilio;

/** A fresh emulator account per test, so tests never share numbers. */
export async function newTwilioAccount(): Promise<TwilioAccount> {
  const res = await fetch(`${emulator()}/_emulator/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!res.ok) throw new Error(`emulator account: ${res.status} ${await res.text()}`);
  return (await res.json()) as TwilioAccount;
}

/** Reads the account through Twilio's own REST API, as the customer's console would show it. */
export async function twilioGet<T>(account: Pick<TwilioAccount, 'accountSid' | 'authToken'>, path: string): Promise<T> {
  const res = await fetch(`${emulator()}/2010-04-01/Accounts/${account.accountSid}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface EmulatorNumber {
  sid: string;
  phone_number: string;
  sms_url: string;
  sms_method: string;
  voice_url: string;
  voice_method: string;
  status_callback: string;
}

export const numberOf = (account: TwilioAccount, sid: string) =>
  twilioGet<EmulatorNumber>(account, `/IncomingPhoneNumbers/${sid}.json`);

/** The numbers of a fresh account by kind: voice+SMS+MMS, SMS only, voice only, and one already in use elsewhere. */
export function numbersByKind(account: TwilioAccount) {
  const find = (predicate: (n: TwilioAccount['numbers'][number]) => boolean, kind: string) => {
    const n = account.numbers.find(predicate);
    if (!n) throw new Error(`no ${kind} number in ${JSON.stringify(account.numbers)}`);
    return n;
  };
  return {
    full: find((n) => n.capabilities.voice && n.capabilities.sms && n.capabilities.mms, 'voice+SMS+MMS'),
    smsOnly: find((n) => !n.capabilities.voice && n.capabilities.sms, 'SMS-only'),
    voiceOnly: find((n) => n.capabilities.voice && !n.capabilities.sms, 'voice-only'),
  };
}

/** A request the emulator made to the product, with the answer it got (null: no answer). */
export interface EmulatorWebhookAttempt {
  url: string;
  method: 'GET' | 'POST';
  messageStatus?: string;
  status: number | null;
  body: string;
  at: string;
}

/** What `POST /_emulator/messages` answers: the inbound message's SID and each webhook delivery. */
export interface TextFromPhoneAnswer {
  sid: string;
  /** The first delivery; null when the number has no SMS URL. */
  webhook: EmulatorWebhookAttempt | null;
  webhooks: EmulatorWebhookAttempt[];
}

/**
 * A phone texts a number of an emulator account: Twilio stores the inbound message and posts the
 * signed webhook to the number's SmsUrl. `deliveries` posts it N times one after another (Twilio's
 * retries), `parallel` N times at once, `signature: 'invalid'` signs it with a wrong key.
 */
export async function textFromPhone(text: {
  from: string;
  to: string;
  body: string;
  deliveries?: number;
  parallel?: number;
  signature?: 'invalid';
}): Promise<TextFromPhoneAnswer> {
  const res = await fetch(`${emulator()}/_emulator/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(text),
  });
  if (res.status !== 201) throw new Error(`text from phone: ${res.status} ${await res.text()}`);
  return (await res.json()) as TextFromPhoneAnswer;
}

/** A message of an emulator account: Twilio's resource, its StatusCallback and every request made for it. */
export interface EmulatorMessage {
  sid: string;
  account_sid: string;
  direction: 'inbound' | 'outbound-api';
  from: string;
  to: string;
  body: string;
  status: string;
  num_segments: string;
  error_code: number | null;
  error_message: string | null;
  status_callback: string;
  /** Status callbacks posted (outbound), in order. */
  callbacks: EmulatorWebhookAttempt[];
  /** Webhook deliveries (inbound). */
  webhooks: EmulatorWebhookAttempt[];
}

/** Every message of an emulator account, oldest first. */
export async function emulatorMessages(accountSid: string): Promise<EmulatorMessage[]> {
  const res = await fetch(`${emulator()}/_emulator/accounts/${accountSid}`);
  if (!res.ok) throw new Error(`emulator account: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { messages: EmulatorMessage[] }).messages;
}

/**
 * How long the emulator's carrier takes per status step of a sent message: for one account (what a
 * test should change, so others are not affected), or for every account without one. The test stack
 * uses 20 ms.
 */
export async function setMessageStepMs(ms: number, accountSid?: string): Promise<void> {
  const res = await fetch(`${emulator()}/_emulator/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messageStepMs: ms, accountSid }),
  });
  if (!res.ok) throw new Error(`emulator settings: ${res.status} ${await res.text()}`);
}
