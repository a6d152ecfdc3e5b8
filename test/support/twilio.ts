import type { MediaSide, MediaStats } from '@switchboard/twilio-emulator';
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

/** Changes the account through Twilio's REST API (a form post), as the customer's own tools would. */
export async function twilioPost<T>(
  account: Pick<TwilioAccount, 'accountSid' | 'authToken'>,
  path: string,
  form: Record<string, string>,
): Promise<T> {
  const res = await fetch(`${emulator()}/2010-04-01/Accounts/${account.accountSid}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
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
  voice_application_sid: string | null;
  sms_application_sid: string | null;
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
  body?: string;
  /** An MMS's pictures: the emulator makes each a Media resource with content of that type. */
  media?: { contentType: string }[];
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

/**
 * A message's media item as Twilio serves it (`GET …/Messages/{sid}/Media/{sid}` with the account's
 * credentials): the bytes and their type.
 */
export async function twilioMediaContent(
  account: Pick<TwilioAccount, 'accountSid' | 'authToken'>,
  mediaUrl: string,
): Promise<{ bytes: Buffer; contentType: string | null }> {
  const res = await fetch(mediaUrl, {
    headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}` },
  });
  if (!res.ok) throw new Error(`GET ${mediaUrl}: ${res.status} ${await res.text()}`);
  return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') };
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
  /** An MMS's Media resources; `uri` is the resource's path (`.json`), its content without it. */
  media: { sid: string; content_type: string; uri: string }[];
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

/** A request the emulator made about a call: a TwiML fetch or a status callback, with what it sent. */
export interface EmulatorCallRequest extends EmulatorWebhookAttempt {
  params: Record<string, string>;
}

/** One call or leg as `GET /_emulator/calls/{Sid}` shows it: Twilio's Call resource and its story. */
export interface EmulatorCallLeg {
  sid: string;
  account_sid: string;
  parent_call_sid: string | null;
  direction: 'inbound' | 'outbound-api' | 'outbound-dial';
  /** E.164, or `client:{identity}`. */
  from: string;
  to: string;
  status: 'queued' | 'initiated' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';
  /** Seconds as a string once an answered call ended; null otherwise. */
  duration: string | null;
  start_time: string | null;
  end_time: string | null;
  /** The party that picked up (`client:{identity}` or a number), as named to answerCall. */
  answeredByParty: string | null;
  application_sid: string | null;
  /** A client's params for its own call; the `<Parameter>`s a `<Client>` leg carries. */
  parameters: Record<string, string>;
  /** TwiML documents requested for it: the Voice URL, its fallback, `<Dial action>`s. */
  twiml: (EmulatorCallRequest & { purpose: 'voice-url' | 'voice-fallback-url' | 'dial-action' | 'redirect' })[];
  /** Status callbacks posted for it, in order. */
  callbacks: (EmulatorCallRequest & { event: 'initiated' | 'ringing' | 'answered' | 'completed'; callStatus: string })[];
  /** What its `<Say>`s said. */
  said: string[];
  digits: { digits: string; at: string }[];
  /** Twilio's debugger codes: 11200 (the webhook failed), 12100 (TwiML unreadable), 13214, 13223… */
  errors: { code: number; message: string; at: string }[];
}

/** A call with its `<Dial>` legs, oldest first. */
export interface EmulatorCall extends EmulatorCallLeg {
  legs: EmulatorCallLeg[];
}

async function callControl<T>(path: string, body: unknown, expected = 200): Promise<T> {
  const res = await fetch(`${emulator()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== expected) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * An outside phone calls a number of an emulator account: Twilio requests the number's Voice URL
 * (signed: CallSid, From, To, CallStatus=ringing, Direction=inbound…) and carries out the TwiML.
 * Resolves once the call waits (ringing legs, a Pause) or has ended, its callbacks so far answered.
 */
export const callFromPhone = (call: { from: string; to: string }) => callControl<EmulatorCall>('/_emulator/calls', call, 201);

/**
 * A Voice SDK client calls out with its Access Token: Twilio requests the token's outgoing
 * application's Voice URL with From/Caller `client:{identity}`, the params (To, From…), ApplicationSid
 * and Direction=inbound. A `<Dial><Number>` then rings that number (answer it with answerCall).
 */
export function callFromClient(call: { token: string; params: Record<string, string> }): Promise<EmulatorCall> {
  const [, payload = ''] = call.token.split('.');
  const identity = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { grants?: { identity?: string } }).grants
    ?.identity;
  if (!identity) throw new Error('callFromClient: the token has no identity grant');
  return callControl<EmulatorCall>(`/_emulator/clients/${encodeURIComponent(identity)}/calls`, call, 201);
}

/**
 * A ringing leg is picked up, by `client:{identity}` or the dialled number (may be left out when one
 * leg rings). The others of a ring-all are canceled. `sid` is the call's or the leg's.
 */
export const answerCall = (sid: string, by?: string) => callControl<EmulatorCall>(`/_emulator/calls/${sid}/answer`, { by });

/**
 * Someone hangs up: the caller, given the call's SID (or `by` its From); a leg's party, given the
 * leg's SID or `by` its `client:{identity}`/number (a ringing leg declined ends busy). Resolves after
 * the `<Dial action>` and the callbacks it led to have been answered.
 */
export const hangUpCall = (sid: string, by?: string) => callControl<EmulatorCall>(`/_emulator/calls/${sid}/hangup`, { by });

/**
 * The caller speaks into the `<Record>` under way for `seconds` of the call's time, without
 * waiting for them; the recording ends at hangup, `advanceCall` or its maxLength.
 */
export const speakOnCall = (sid: string, seconds: number) =>
  callControl<EmulatorCall>(`/_emulator/calls/${sid}/speak`, { seconds });

/** A Recording `<Record>` made (Twilio's resource), with the recording status callbacks the emulator posted. */
export interface EmulatorRecording {
  sid: string;
  call_sid: string;
  status: string;
  duration: string | null;
  /** Its audio on the emulator's host (Twilio's RecordingUrl); `.json` is the resource. */
  media_url: string;
  play_beep: boolean;
  callbacks: (EmulatorWebhookAttempt & { event: string; params?: Record<string, string> })[];
}

export async function emulatorRecordings(accountSid: string): Promise<EmulatorRecording[]> {
  const res = await fetch(`${emulator()}/_emulator/accounts/${accountSid}`);
  if (!res.ok) throw new Error(`emulator account: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { recordings?: EmulatorRecording[] }).recordings ?? [];
}

/** Digits pressed on a call under way: 0-9, *, # and w only (else 400 'Illegal character passed into sendDigits'). */
export const sendCallDigits = (sid: string, digits: string) =>
  callControl<EmulatorCall>(`/_emulator/calls/${sid}/digits`, { digits });

/**
 * Time passes for a call: its current Pause ends, or its `<Dial>` times out (the ringing legs end
 * no-answer and the action hears DialCallStatus=no-answer), without waiting real seconds.
 */
export const advanceCall = (sid: string) => callControl<EmulatorCall>(`/_emulator/calls/${sid}/advance`, {});

/**
 * A call's whole story: its TwiML requests, its legs with their parties and statuses, every callback
 * and its answer, and the RTP counts of each browser side of its audio (`media`; the same for a leg).
 */
export async function emulatorCall(sid: string): Promise<EmulatorCall & { media: Partial<Record<MediaSide, MediaStats>> }> {
  const res = await fetch(`${emulator()}/_emulator/calls/${sid}`);
  if (!res.ok) throw new Error(`emulator call: ${res.status} ${await res.text()}`);
  return (await res.json()) as EmulatorCall & { media: Partial<Record<MediaSide, MediaStats>> };
}

/** What the emulator makes of an Access Token, checked as Twilio checks it (20101…20107, 20157 when not valid). */
export interface AccessTokenCheck {
  valid: boolean;
  identity: string | null;
  grants: { identity?: string; voice?: { incoming?: { allow?: boolean }; outgoing?: { application_sid?: string } } } | null;
  accountSid?: string;
  apiKeySid?: string;
  applicationSid?: string | null;
  expiresAt?: string;
  error: { code: number; message: string } | null;
}

export const verifyAccessToken = (token: string) => callControl<AccessTokenCheck>('/_emulator/tokens/verify', { token });

/**
 * How fast a call's Twilio seconds pass (Pause, Dial timeout), for one account or every one: 0.01
 * makes a 25 s ring last 250 ms. 1 (real time) by default; advanceCall needs no waiting at all.
 */
export async function setCallTimeScale(scale: number, accountSid?: string): Promise<void> {
  await callControl('/_emulator/settings', { callTimeScale: scale, accountSid });
}

/**
 * The emulator's fault switch (packages/twilio-emulator/README.md: What it serves, its faults): what one
 * account's Twilio does wrong next.
 */
export interface TwilioFaults {
  rest?: { status?: number; delayMs?: number; times?: number; path?: string };
  webhooks?: { drop: number };
}

/** Replaces the faults of one account ({} clears them; setting them lets held requests through). */
export async function setTwilioFaults(accountSid: string, faults: TwilioFaults): Promise<void> {
  const res = await fetch(`${emulator()}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...faults, accountSid }),
  });
  if (!res.ok) throw new Error(`emulator faults: ${res.status} ${await res.text()}`);
}

/** A conference as the emulator keeps it (GET /_emulator/conferences/{Sid or name}): its participants and what each heard. */
export interface EmulatorConference {
  sid: string;
  friendlyName: string;
  status: 'init' | 'in-progress' | 'completed';
  reasonConferenceEnded: string | null;
  participants: { callSid: string; status: string; hold: boolean; muted: boolean; heard: { what: string }[] }[];
}

/** The conference of that SID, or the one under way of that name; undefined when none. */
export async function emulatorConference(sidOrName: string): Promise<EmulatorConference | undefined> {
  const res = await fetch(`${emulator()}/_emulator/conferences/${encodeURIComponent(sidOrName)}`);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`conference ${sidOrName}: ${res.status} ${await res.text()}`);
  return (await res.json()) as EmulatorConference;
}
