/**
 * A small typed client for the part of Twilio's REST API the product uses. Not the `twilio` package:
 * its root costs ~4.5 MB and ~150 ms of cold start. TWILIO_API_BASE_URL points it at the local
 * emulator; nothing else knows the difference.
 */

import { callBudgetMs } from '../lib/deadline';

const API_VERSION = '2010-04-01';
/** Per request; less when the function has less time left (lib/deadline). */
const TIMEOUT_MS = 8_000;

export interface TwilioCredentials {
  accountSid: string;
  /** The account SID with its auth token, or an API key SID with its secret. */
  username: string;
  password: string;
}

export class TwilioApiError extends Error {
  constructor(
    /** Twilio's HTTP status; 0 when no answer came. */
    readonly status: number,
    readonly code: number | undefined,
    message: string,
    /** No answer within the time given: the request may still have been acted on. */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'TwilioApiError';
  }
  get isAuthFailure() {
    return this.status === 401 || this.code === 20003;
  }
  get isNotFound() {
    return this.status === 404 || this.code === 20404;
  }
}

export interface TwilioAccount {
  sid: string;
  friendly_name: string;
  status: string;
}

export interface TwilioIncomingNumber {
  sid: string;
  phone_number: string;
  friendly_name: string;
  capabilities: { voice?: boolean; sms?: boolean; mms?: boolean };
  sms_url: string | null;
  sms_method: string | null;
  voice_url: string | null;
  voice_method: string | null;
  status_callback: string | null;
  status_callback_method: string | null;
  /** A TwiML application whose URLs Twilio uses instead of the number's own; '' or null when none. */
  voice_application_sid?: string | null;
  sms_application_sid?: string | null;
}

/** Twilio's Message resource, the fields the product reads. */
export interface TwilioMessage {
  sid: string;
  /** queued (or accepted, with a Messaging Service) at creation. */
  status: string;
  /** A number in a string, as Twilio sends it. */
  num_segments: string;
  error_code: number | null;
  error_message: string | null;
}

/** IncomingPhoneNumber update parameters, in Twilio's names. */
export type NumberUpdate = Partial<
  Record<
    | 'SmsUrl'
    | 'SmsMethod'
    | 'SmsApplicationSid'
    | 'VoiceUrl'
    | 'VoiceMethod'
    | 'VoiceApplicationSid'
    | 'StatusCallback'
    | 'StatusCallbackMethod',
    string
  >
>;

/** A Messaging Service (messaging.twilio.com/v1 Services), the fields the product reads. */
export interface TwilioMessagingService {
  sid: string;
  friendly_name: string;
  inbound_request_url: string | null;
  /** False: inbound texts to the service's numbers go to `inbound_request_url`, not to each number's SmsUrl. */
  use_inbound_webhook_on_number: boolean;
}

/** A number's membership of a Messaging Service (Services/{sid}/PhoneNumbers): `sid` is the number's PN SID. */
export interface TwilioServiceNumber {
  sid: string;
  phone_number: string;
}

function baseUrl(): string {
  return (process.env.TWILIO_API_BASE_URL ?? 'https://api.twilio.com').replace(/\/$/, '');
}

/** Messaging Services live on another host; TWILIO_MESSAGING_BASE_URL points it at the emulator. */
function messagingBaseUrl(): string {
  return (process.env.TWILIO_MESSAGING_BASE_URL ?? 'https://messaging.twilio.com').replace(/\/$/, '');
}

/** Twilio's JSON; undefined for anything else (a proxy's HTML error page, a cut body). */
function parseBody(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = text ? JSON.parse(text) : {};
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Bytes Twilio serves (a message's media, a recording), with their type. */
export interface TwilioContent {
  bytes: Buffer;
  contentType: string;
}

/** More bytes than the caller can take: `size` when Twilio said it (Content-Length), else unknown. */
export class TwilioContentTooLarge extends Error {
  constructor(readonly size: number | undefined) {
    super('Twilio content is larger than the answer can carry');
    this.name = 'TwilioContentTooLarge';
  }
}

/**
 * Only a path of Twilio's REST API is followed, on the host of TWILIO_API_BASE_URL: the company's
 * credentials never go to a host a stored URL names.
 */
export function twilioApiPath(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  return path.startsWith(`/${API_VERSION}/Accounts/`) && !path.includes('..') ? path : undefined;
}

/** The body read chunk by chunk, given up past `maxBytes` (never held unbounded in memory). */
async function boundedBytes(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new TwilioContentTooLarge(declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new TwilioContentTooLarge(undefined);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** A form body; a list value is its parameter repeated, in order (Twilio's `MediaUrl`). */
function formBody(params: Record<string, string | readonly string[]>): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of typeof value === 'string' ? [value] : value) form.append(name, one);
  }
  return form.toString();
}

export function twilioClient(credentials: TwilioCredentials) {
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  const accountPath = `/${API_VERSION}/Accounts/${encodeURIComponent(credentials.accountSid)}`;

  async function call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    pathOrUri: string,
    params?: Record<string, string | readonly string[]>,
  ): Promise<T> {
    const url = pathOrUri.startsWith('/v1/')
      ? `${messagingBaseUrl()}${pathOrUri}`
      : pathOrUri.startsWith(`/${API_VERSION}/`)
        ? `${baseUrl()}${pathOrUri}`
        : `${baseUrl()}${accountPath}${pathOrUri}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          Authorization: authorization,
          Accept: 'application/json',
          ...(params ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: params ? formBody(params) : undefined,
        signal: AbortSignal.timeout(callBudgetMs(TIMEOUT_MS)),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw new TwilioApiError(0, undefined, 'Twilio did not answer in time', true);
      throw new TwilioApiError(0, undefined, `Twilio could not be reached: ${(error as Error).message}`);
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text().catch(() => '');
    const body = parseBody(text);
    if (response.ok && !body) throw new TwilioApiError(502, undefined, `Twilio answered ${response.status} without its JSON`);
    if (!body || !response.ok) {
      throw new TwilioApiError(
        response.status,
        typeof body?.code === 'number' ? body.code : undefined,
        typeof body?.message === 'string' ? body.message : `Twilio answered ${response.status}`,
      );
    }
    return body as T;
  }

  /** Every item of a list resource, following Twilio's paging. */
  async function listAll<T>(first: string, field: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | null = first;
    while (next) {
      const page: Record<string, unknown> & { next_page_uri: string | null } = await call('GET', next);
      items.push(...((page[field] as T[] | undefined) ?? []));
      next = page.next_page_uri;
    }
    return items;
  }

  /** Every item of a v1 list resource (Messaging): paged by `meta.next_page_url`, a full URL on Twilio's host. */
  async function listAllV1<T>(first: string, field: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | null = first;
    while (next) {
      const page: Record<string, unknown> & { meta?: { next_page_url?: string | null } } = await call('GET', next);
      items.push(...((page[field] as T[] | undefined) ?? []));
      const url = page.meta?.next_page_url;
      // Only its path and query are followed: the host is ours to choose (the emulator locally).
      next = url ? `${new URL(url).pathname}${new URL(url).search}` : null;
    }
    return items;
  }

  /**
   * Bytes at a path of Twilio's API (media, a recording), at most `maxBytes`. Twilio may redirect
   * media to a short-lived storage URL: followed (fetch drops the Authorization header on a redirect
   * to another origin).
   */
  async function content(path: string, maxBytes: number): Promise<TwilioContent> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl()}${path}`, {
        headers: { Authorization: authorization },
        redirect: 'follow',
        signal: AbortSignal.timeout(callBudgetMs(TIMEOUT_MS)),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw new TwilioApiError(0, undefined, 'Twilio did not answer in time', true);
      throw new TwilioApiError(0, undefined, `Twilio could not be reached: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const body = parseBody(await response.text().catch(() => ''));
      throw new TwilioApiError(
        response.status,
        typeof body?.code === 'number' ? body.code : undefined,
        typeof body?.message === 'string' ? body.message : `Twilio answered ${response.status}`,
      );
    }
    const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
    try {
      return { bytes: await boundedBytes(response, maxBytes), contentType };
    } catch (error) {
      if (error instanceof TwilioContentTooLarge) throw error;
      if ((error as Error).name === 'TimeoutError') throw new TwilioApiError(0, undefined, 'Twilio did not answer in time', true);
      throw new TwilioApiError(0, undefined, `Twilio's answer was cut off: ${(error as Error).message}`);
    }
  }

  return {
    /** A message's media item or a recording's audio, by its path in Twilio's API (twilioApiPath). */
    fetchContent: content,

    fetchAccount: () => call<TwilioAccount>('GET', '.json'),

    listIncomingNumbers: () => listAll<TwilioIncomingNumber>('/IncomingPhoneNumbers.json?PageSize=200', 'incoming_phone_numbers'),

    listApplications: () => listAll<{ sid: string; friendly_name: string }>('/Applications.json?PageSize=200', 'applications'),

    listKeys: () => listAll<{ sid: string; friendly_name: string }>('/Keys.json?PageSize=200', 'keys'),

    fetchIncomingNumber: (sid: string) =>
      call<TwilioIncomingNumber>('GET', `/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`),

    listMessagingServices: () => listAllV1<TwilioMessagingService>('/v1/Services?PageSize=1000', 'services'),

    listServiceNumbers: (serviceSid: string) =>
      listAllV1<TwilioServiceNumber>(
        `/v1/Services/${encodeURIComponent(serviceSid)}/PhoneNumbers?PageSize=1000`,
        'phone_numbers',
      ),

    updateMessagingService: (sid: string, params: { UseInboundWebhookOnNumber: 'true' | 'false' }) =>
      call<TwilioMessagingService>('POST', `/v1/Services/${encodeURIComponent(sid)}`, params),

    updateIncomingNumber: (sid: string, update: NumberUpdate) =>
      call<TwilioIncomingNumber>(
        'POST',
        `/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`,
        update as Record<string, string>,
      ),

    createApplication: (params: { FriendlyName: string; VoiceUrl: string; VoiceMethod: string }) =>
      call<{ sid: string }>('POST', '/Applications.json', params),

    fetchApplication: (sid: string) =>
      call<{ sid: string; voice_url: string | null }>('GET', `/Applications/${encodeURIComponent(sid)}.json`),

    updateApplication: (sid: string, params: { VoiceUrl: string; VoiceMethod: string }) =>
      call<{ sid: string; voice_url: string | null }>('POST', `/Applications/${encodeURIComponent(sid)}.json`, params),

    deleteApplication: (sid: string) => call<void>('DELETE', `/Applications/${encodeURIComponent(sid)}.json`),

    createKey: (friendlyName: string) =>
      call<{ sid: string; secret: string }>('POST', '/Keys.json', { FriendlyName: friendlyName }),

    deleteKey: (sid: string) => call<void>('DELETE', `/Keys/${encodeURIComponent(sid)}.json`),

    /**
     * Sends a text; Twilio posts each later status to StatusCallback. `MediaUrl` (repeated, up to 10)
     * makes it an MMS: Twilio fetches each URL as it sends. A text of pictures only has no Body.
     */
    sendMessage: ({
      Body,
      MediaUrl = [],
      ...params
    }: {
      From: string;
      To: string;
      Body: string;
      StatusCallback: string;
      MediaUrl?: readonly string[];
    }) =>
      call<TwilioMessage>('POST', '/Messages.json', {
        ...params,
        ...(Body || MediaUrl.length === 0 ? { Body } : {}),
        ...(MediaUrl.length ? { MediaUrl } : {}),
      }),
    /** Makes a call under way carry out this TwiML at once (its ringing Dial legs are canceled). */
    redirectCall: (callSid: string, twiml: string) =>
      call<{ sid: string; status: string }>('POST', `/Calls/${encodeURIComponent(callSid)}.json`, { Twiml: twiml }),
    /**
     * Records a call leg in progress, each party on a channel of its own; Twilio posts the recording's
     * statuses to `statusCallback`. https://www.twilio.com/docs/voice/api/recording#create-a-recording-resource
     */
    startCallRecording: (callSid: string, statusCallback: string) =>
      call<{ sid: string; status: string }>('POST', `/Calls/${encodeURIComponent(callSid)}/Recordings.json`, {
        RecordingChannels: 'dual',
        RecordingStatusCallback: statusCallback,
        RecordingStatusCallbackMethod: 'POST',
        RecordingStatusCallbackEvent: ['in-progress', 'completed', 'absent'],
      }),
    /** Pauses (the pause is kept as silence, Twilio's default) or resumes a call's recording. */
    updateCallRecording: (callSid: string, recordingSid: string, status: 'paused' | 'in-progress') =>
      call<{ sid: string; status: string }>(
        'POST',
        `/Calls/${encodeURIComponent(callSid)}/Recordings/${encodeURIComponent(recordingSid)}.json`,
        { Status: status },
      ),
    /** The conference under way with this name, if any (docs/architecture.md: Calls in a conference). */
    findConference: async (friendlyName: string) => {
      const page = await call<{ conferences: { sid: string; status: string }[] }>(
        'GET',
        `/Conferences.json?FriendlyName=${encodeURIComponent(friendlyName)}&Status=in-progress&PageSize=1`,
      );
      return page.conferences[0];
    },
    /** Holds a conference participant (Twilio's default hold music: no HoldUrl) or brings it back. */
    holdParticipant: (conferenceSid: string, callSid: string, hold: boolean) =>
      call<{ call_sid: string; hold: boolean }>(
        'POST',
        `/Conferences/${encodeURIComponent(conferenceSid)}/Participants/${encodeURIComponent(callSid)}.json`,
        { Hold: String(hold) },
      ),
  };
}

export type TwilioClient = ReturnType<typeof twilioClient>;
