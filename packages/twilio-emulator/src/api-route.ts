import type { EmulatorEvents } from './events';
import type { AccountRecord } from './model';
import type { EmulatorStore } from './store';
import type { ConferenceControls } from './voice/participant-call';

/**
 * What a route of the REST API is and gets, apart from the router (rest-api.ts), so the resource
 * modules (messaging/messages-api.ts, voice/calls-api.ts) and the router depend on it rather than on
 * each other.
 */

export interface ApiRequest {
  method: string;
  /** The path as requested, e.g. `/2010-04-01/Accounts/AC…/IncomingPhoneNumbers.json`. */
  path: string;
  query: URLSearchParams;
  /** The `application/x-www-form-urlencoded` body of a POST. */
  form: URLSearchParams;
  authorization: string | undefined;
}

/** What the REST API works on: the store, and the bus on which it announces new messages. */
export interface ApiServices {
  store: EmulatorStore;
  /** The emulator's own address, for the absolute URLs Twilio writes (a Recording's media_url). */
  baseUrl: string;
  events: EmulatorEvents;
  /** The voice part's conferences, which the Conferences and Participants resources change. */
  conferences?: ConferenceControls;
}

export interface ApiAnswer {
  status: number;
  /** JSON, or bytes (media, recordings) sent as they are with the Content-Type in `headers`. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Context extends ApiServices {
  account: AccountRecord;
  request: ApiRequest;
  /** The resource SID in the path, for instance routes. */
  sid: string;
  /** Every SID the route's pattern captured, in order (a subresource's parent first). */
  sids: string[];
}

type Handler = (context: Context) => ApiAnswer;

export interface Route {
  /** The path after `/2010-04-01/Accounts/{AccountSid}`. */
  pattern: RegExp;
  /** As with Twilio's Standard API keys, which may not read the account or manage keys. */
  accountCredentialsOnly?: boolean;
  methods: Partial<Record<'GET' | 'POST' | 'DELETE', Handler>>;
}
