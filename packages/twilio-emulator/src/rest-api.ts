import { timingSafeEqual } from 'node:crypto';
import type { ApiAnswer, ApiRequest, ApiServices, Context, Route } from './api-route';
import { messageRoutes } from './messaging/messages-api';
import {
  type AccountRecord,
  type ApiKeyRecord,
  type ApplicationRecord,
  newKeySecret,
  newSid,
  now,
  type PhoneNumberRecord,
  type WebhookMethod,
} from './model';
import { listPage } from './paging';
import { accountPath, accountResource, apiKeyResource, applicationResource, phoneNumberResource } from './representation';
import {
  APPLICATION_NOT_ACCESSIBLE,
  authenticate,
  INVALID_METHOD,
  INVALID_URL,
  invalidParameter,
  methodNotAllowed,
  notFound,
  TwilioError,
} from './twilio-errors';
import { callRecordingRoutes } from './voice/call-recordings-api';
import { callRoutes } from './voice/calls-api';
import { conferenceRoutes } from './voice/conferences-api';
import { recordingRoutes } from './voice/recordings-api';

/** The part of Twilio's REST API the product uses. A further resource is one more entry here. */
const routes: Route[] = [
  { pattern: /^\.json$/, accountCredentialsOnly: true, methods: { GET: ({ account }) => ok(accountResource(account)) } },
  { pattern: /^\/IncomingPhoneNumbers\.json$/, methods: { GET: listNumbers } },
  { pattern: /^\/IncomingPhoneNumbers\/([^/]+)\.json$/, methods: { GET: fetchNumber, POST: updateNumber } },
  { pattern: /^\/Applications\.json$/, methods: { GET: listApplications, POST: createApplication } },
  {
    pattern: /^\/Applications\/([^/]+)\.json$/,
    methods: { GET: fetchApplication, POST: updateApplication, DELETE: deleteApplication },
  },
  { pattern: /^\/Keys\.json$/, accountCredentialsOnly: true, methods: { GET: listKeys, POST: createKey } },
  {
    pattern: /^\/Keys\/([^/]+)\.json$/,
    accountCredentialsOnly: true,
    methods: { GET: fetchKey, POST: updateKey, DELETE: deleteKey },
  },
  ...messageRoutes,
  ...callRoutes,
  ...callRecordingRoutes,
  ...recordingRoutes,
  ...conferenceRoutes,
];

const ACCOUNT_PATH = /^\/2010-04-01\/Accounts\/([^/.]+)(.*)$/;

/** Authenticates as Twilio does (before looking for the resource), then answers. */
export function answerApiRequest(services: ApiServices, request: ApiRequest): ApiAnswer {
  const { store } = services;
  try {
    const match = ACCOUNT_PATH.exec(request.path);
    if (!match) throw notFound(request.path);
    const [, accountSid = '', rest = ''] = match;
    const account = store.account(accountSid);
    const credential = account && authenticatedAs(account, request.authorization);
    if (!account || !credential) throw authenticate();

    for (const route of routes) {
      const found = route.pattern.exec(rest);
      if (!found) continue;
      if (route.accountCredentialsOnly && credential !== 'account') throw authenticate();
      const handler = route.methods[request.method as keyof Route['methods']];
      if (!handler) throw methodNotAllowed(request.method);
      const sids = found.slice(1).map((part) => part ?? '');
      return handler({ ...services, account, request, sid: sids.at(-1) ?? '', sids });
    }
    throw notFound(request.path);
  } catch (error) {
    if (!(error instanceof TwilioError)) throw error;
    return { status: error.status, body: error.body, headers: error.headers };
  }
}

/** HTTP Basic with the account's SID and auth token, or with one of its API keys and the key's secret. */
export function authenticatedAs(account: AccountRecord, authorization: string | undefined): 'account' | 'key' | undefined {
  const [scheme, encoded] = (authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (username === account.sid && sameSecret(password, account.authToken)) return 'account';
  const key = account.keys.find((k) => k.sid === username);
  if (key && sameSecret(password, key.secret)) return 'key';
  return undefined;
}

function sameSecret(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const ok = (body: unknown): ApiAnswer => ({ status: 200, body });
const created = (body: unknown): ApiAnswer => ({ status: 201, body });
const deleted: ApiAnswer = { status: 204 };

function found<T extends { sid: string }>(items: readonly T[], { sid, request }: Context): T {
  const item = items.find((i) => i.sid === sid);
  if (!item) throw notFound(request.path);
  return item;
}

/** The filters a list request used, in Twilio's parameter names. */
function filtersOf(query: URLSearchParams, names: string[]): [string, string][] {
  return names.flatMap((name) => {
    const value = query.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
}

// IncomingPhoneNumbers

function listNumbers({ account, request }: Context): ApiAnswer {
  const filters = filtersOf(request.query, ['FriendlyName', 'PhoneNumber']);
  const friendlyName = request.query.get('FriendlyName');
  const phoneNumber = request.query.get('PhoneNumber');
  const matchesNumber = phoneNumber === null ? () => true : phoneNumberFilter(phoneNumber);
  const items = account.numbers.filter(
    (n) => (friendlyName === null || n.friendlyName === friendlyName) && matchesNumber(n.phoneNumber),
  );
  return ok(
    listPage({
      path: `${accountPath(account.sid)}/IncomingPhoneNumbers.json`,
      key: 'incoming_phone_numbers',
      items,
      query: request.query,
      filters,
      represent: (n) => phoneNumberResource(account, n),
    }),
  );
}

/** Twilio matches partial numbers, with `*` standing for any one digit. */
function phoneNumberFilter(pattern: string): (phoneNumber: string) => boolean {
  const digits = pattern.replace(/[^\d*]/g, '');
  const expression = new RegExp(digits.replaceAll('*', '\\d'));
  return (phoneNumber) => expression.test(phoneNumber.replace(/\D/g, ''));
}

function fetchNumber(context: Context): ApiAnswer {
  return ok(phoneNumberResource(context.account, found(context.account.numbers, context)));
}

export type ParameterKind = 'text' | 'url' | 'method' | 'application';

const NUMBER_PARAMETERS: Record<string, [keyof PhoneNumberRecord, ParameterKind]> = {
  FriendlyName: ['friendlyName', 'text'],
  VoiceUrl: ['voiceUrl', 'url'],
  VoiceMethod: ['voiceMethod', 'method'],
  VoiceFallbackUrl: ['voiceFallbackUrl', 'url'],
  VoiceFallbackMethod: ['voiceFallbackMethod', 'method'],
  StatusCallback: ['statusCallback', 'url'],
  StatusCallbackMethod: ['statusCallbackMethod', 'method'],
  VoiceApplicationSid: ['voiceApplicationSid', 'application'],
  SmsUrl: ['smsUrl', 'url'],
  SmsMethod: ['smsMethod', 'method'],
  SmsFallbackUrl: ['smsFallbackUrl', 'url'],
  SmsFallbackMethod: ['smsFallbackMethod', 'method'],
  SmsApplicationSid: ['smsApplicationSid', 'application'],
};

function updateNumber(context: Context): ApiAnswer {
  const { store, account, request } = context;
  const number = found(account.numbers, context);
  const changes = readParameters(request.form, NUMBER_PARAMETERS, account);
  store.change(() => Object.assign(number, changes, { dateUpdated: now(store.clock) }));
  return ok(phoneNumberResource(account, number));
}

/**
 * Reads the parameters present in a form, checked as Twilio checks them, before anything changes.
 * Parameters Twilio knows but the emulator does not keep are ignored, as Twilio ignores unknown ones.
 */
export function readParameters(
  form: URLSearchParams,
  parameters: Record<string, [string, ParameterKind]>,
  account: AccountRecord,
): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const [name, [field, kind]] of Object.entries(parameters)) {
    const value = form.get(name);
    if (value === null) continue;
    changes[field] = checked(name, value, kind, account);
  }
  return changes;
}

function checked(name: string, value: string, kind: ParameterKind, account: AccountRecord): string {
  switch (kind) {
    case 'text':
      return value;
    case 'url':
      // An empty value clears the URL.
      if (value !== '' && !isWebhookUrl(value)) throw invalidParameter(INVALID_URL, `${name} is not a valid URL: ${value}`);
      return value;
    case 'method': {
      const method = value.toUpperCase();
      if (method !== 'GET' && method !== 'POST')
        throw invalidParameter(INVALID_METHOD, `${name} must be either GET or POST, not "${value}"`);
      return method satisfies WebhookMethod;
    }
    case 'application':
      if (value !== '' && !account.applications.some((a) => a.sid === value))
        throw invalidParameter(APPLICATION_NOT_ACCESSIBLE, `${name} ${value} is not an application of this account`);
      return value;
  }
}

function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

// Applications

const APPLICATION_PARAMETERS: Record<string, [keyof ApplicationRecord, ParameterKind]> = {
  FriendlyName: ['friendlyName', 'text'],
  VoiceUrl: ['voiceUrl', 'url'],
  VoiceMethod: ['voiceMethod', 'method'],
  VoiceFallbackUrl: ['voiceFallbackUrl', 'url'],
  VoiceFallbackMethod: ['voiceFallbackMethod', 'method'],
  StatusCallback: ['statusCallback', 'url'],
  StatusCallbackMethod: ['statusCallbackMethod', 'method'],
  SmsUrl: ['smsUrl', 'url'],
  SmsMethod: ['smsMethod', 'method'],
  SmsFallbackUrl: ['smsFallbackUrl', 'url'],
  SmsFallbackMethod: ['smsFallbackMethod', 'method'],
  SmsStatusCallback: ['smsStatusCallback', 'url'],
  MessageStatusCallback: ['messageStatusCallback', 'url'],
};

function listApplications({ account, request }: Context): ApiAnswer {
  const friendlyName = request.query.get('FriendlyName');
  return ok(
    listPage({
      path: `${accountPath(account.sid)}/Applications.json`,
      key: 'applications',
      items: account.applications.filter((a) => friendlyName === null || a.friendlyName === friendlyName),
      query: request.query,
      filters: filtersOf(request.query, ['FriendlyName']),
      represent: (a) => applicationResource(account, a),
    }),
  );
}

function createApplication({ store, account, request }: Context): ApiAnswer {
  const changes = readParameters(request.form, APPLICATION_PARAMETERS, account);
  const at = now(store.clock);
  const application: ApplicationRecord = {
    sid: newSid('AP'),
    friendlyName: '',
    voiceUrl: '',
    voiceMethod: 'POST',
    voiceFallbackUrl: '',
    voiceFallbackMethod: 'POST',
    statusCallback: '',
    statusCallbackMethod: 'POST',
    smsUrl: '',
    smsMethod: 'POST',
    smsFallbackUrl: '',
    smsFallbackMethod: 'POST',
    smsStatusCallback: '',
    messageStatusCallback: '',
    ...changes,
    dateCreated: at,
    dateUpdated: at,
  };
  store.change(() => account.applications.push(application));
  return created(applicationResource(account, application));
}

function fetchApplication(context: Context): ApiAnswer {
  return ok(applicationResource(context.account, found(context.account.applications, context)));
}

function updateApplication(context: Context): ApiAnswer {
  const { store, account, request } = context;
  const application = found(account.applications, context);
  const changes = readParameters(request.form, APPLICATION_PARAMETERS, account);
  store.change(() => Object.assign(application, changes, { dateUpdated: now(store.clock) }));
  return ok(applicationResource(account, application));
}

/** Numbers that used the application stop using it, rather than pointing at nothing. */
function deleteApplication(context: Context): ApiAnswer {
  const { store, account } = context;
  const application = found(account.applications, context);
  store.change(() => {
    account.applications = account.applications.filter((a) => a !== application);
    for (const number of account.numbers) {
      if (number.voiceApplicationSid === application.sid) number.voiceApplicationSid = '';
      if (number.smsApplicationSid === application.sid) number.smsApplicationSid = '';
    }
  });
  return deleted;
}

// Keys

function listKeys({ account, request }: Context): ApiAnswer {
  return ok(
    listPage({
      path: `${accountPath(account.sid)}/Keys.json`,
      key: 'keys',
      items: account.keys,
      query: request.query,
      filters: [],
      represent: (k) => apiKeyResource(k),
    }),
  );
}

function createKey({ store, account, request }: Context): ApiAnswer {
  const at = now(store.clock);
  const key: ApiKeyRecord = {
    sid: newSid('SK'),
    friendlyName: request.form.get('FriendlyName') ?? '',
    secret: newKeySecret(),
    dateCreated: at,
    dateUpdated: at,
  };
  store.change(() => account.keys.push(key));
  return created(apiKeyResource(key, { withSecret: true }));
}

function fetchKey(context: Context): ApiAnswer {
  return ok(apiKeyResource(found(context.account.keys, context)));
}

function updateKey(context: Context): ApiAnswer {
  const { store, account, request } = context;
  const key = found(account.keys, context);
  const friendlyName = request.form.get('FriendlyName');
  store.change(() => Object.assign(key, friendlyName === null ? {} : { friendlyName }, { dateUpdated: now(store.clock) }));
  return ok(apiKeyResource(key));
}

function deleteKey(context: Context): ApiAnswer {
  const { store, account } = context;
  const key = found(account.keys, context);
  store.change(() => {
    account.keys = account.keys.filter((k) => k !== key);
  });
  return deleted;
}
