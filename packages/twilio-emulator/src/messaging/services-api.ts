import type { ApiAnswer, ApiRequest, ApiServices } from '../api-route';
import {
  type AccountRecord,
  iso8601,
  type MessagingServiceRecord,
  messagingServiceOf,
  newSid,
  now,
  type PhoneNumberRecord,
} from '../model';
import { listPageV1 } from '../paging';
import { countryOf } from '../phone-numbers';
import { authenticatedAs, type ParameterKind, readParameters } from '../rest-api';
import { authenticate, INVALID_PARAMETER, invalidParameter, methodNotAllowed, notFound, TwilioError } from '../twilio-errors';

/**
 * Twilio's Messaging Services API as messaging.twilio.com/v1 serves it: Services and their sender
 * pool's PhoneNumbers. The account is the one the credentials (account SID + auth token, or an API
 * key) belong to, as there is none in the path. Dates in ISO 8601 and absolute URLs, as v1 writes them.
 * https://www.twilio.com/docs/messaging/api/service-resource
 * https://www.twilio.com/docs/messaging/api/phonenumber-resource
 */

/** Twilio's codes for adding a number to a service. https://www.twilio.com/docs/api/errors */
export const PHONE_NUMBER_INVALID = 21421;
export const PHONE_NUMBER_IN_SERVICE = 21710;
export const PHONE_NUMBER_IN_ANOTHER_SERVICE = 21712;
export const PHONE_NUMBER_WITHOUT_MESSAGING = 21715;

interface V1Context extends ApiServices {
  account: AccountRecord;
  request: ApiRequest;
  /** Where the emulator is served, for the absolute URLs v1 answers carry. */
  base: string;
  serviceSid: string;
  sid: string;
}

type Handler = (context: V1Context) => ApiAnswer;

const routes: { pattern: RegExp; methods: Partial<Record<'GET' | 'POST' | 'DELETE', Handler>> }[] = [
  { pattern: /^\/v1\/Services$/, methods: { GET: listServices, POST: createService } },
  { pattern: /^\/v1\/Services\/([^/]+)$/, methods: { GET: fetchService, POST: updateService, DELETE: deleteService } },
  { pattern: /^\/v1\/Services\/([^/]+)\/PhoneNumbers$/, methods: { GET: listPhoneNumbers, POST: addPhoneNumber } },
  { pattern: /^\/v1\/Services\/([^/]+)\/PhoneNumbers\/([^/]+)$/, methods: { GET: fetchPhoneNumber, DELETE: removePhoneNumber } },
];

/** Authenticates as Twilio does (before looking for the resource), then answers. */
export function answerMessagingRequest(services: ApiServices, request: ApiRequest, base: string): ApiAnswer {
  try {
    const account = services.store.accounts.find((a) => authenticatedAs(a, request.authorization));
    if (!account) throw authenticate();
    for (const route of routes) {
      const found = route.pattern.exec(request.path);
      if (!found) continue;
      const handler = route.methods[request.method as 'GET' | 'POST' | 'DELETE'];
      if (!handler) throw methodNotAllowed(request.method);
      return handler({ ...services, account, request, base, serviceSid: found[1] ?? '', sid: found[2] ?? '' });
    }
    throw notFound(request.path);
  } catch (error) {
    if (!(error instanceof TwilioError)) throw error;
    return { status: error.status, body: error.body, headers: error.headers };
  }
}

/** The account whose credentials a request carries (its SID, or one of its keys'), for account-scoped faults. */
export function credentialAccountSid(services: ApiServices, authorization: string | undefined): string | undefined {
  return services.store.accounts.find((a) => authenticatedAs(a, authorization))?.sid;
}

const servicePath = (sid: string) => `/v1/Services/${sid}`;

export function serviceResource(base: string, account: AccountRecord, service: MessagingServiceRecord) {
  const url = base + servicePath(service.sid);
  return {
    account_sid: account.sid,
    sid: service.sid,
    date_created: iso8601(service.dateCreated),
    date_updated: iso8601(service.dateUpdated),
    friendly_name: service.friendlyName,
    inbound_request_url: service.inboundRequestUrl || null,
    inbound_method: service.inboundMethod,
    fallback_url: service.fallbackUrl || null,
    fallback_method: service.fallbackMethod,
    status_callback: service.statusCallback || null,
    sticky_sender: service.stickySender,
    mms_converter: service.mmsConverter,
    smart_encoding: service.smartEncoding,
    scan_message_content: service.scanMessageContent,
    fallback_to_long_code: service.fallbackToLongCode,
    area_code_geomatch: service.areaCodeGeomatch,
    validity_period: service.validityPeriod,
    synchronous_validation: service.synchronousValidation,
    usecase: service.usecase,
    // The emulator has no A2P 10DLC registration.
    us_app_to_person_registered: false,
    use_inbound_webhook_on_number: service.useInboundWebhookOnNumber,
    links: {
      phone_numbers: `${url}/PhoneNumbers`,
      short_codes: `${url}/ShortCodes`,
      alpha_senders: `${url}/AlphaSenders`,
      messages: `${url}/Messages`,
      us_app_to_person: `${url}/Compliance/Usa2p`,
      us_app_to_person_usecases: `${url}/Compliance/Usa2p/Usecases`,
      channel_senders: `${url}/ChannelSenders`,
      destination_alpha_senders: `${url}/DestinationAlphaSenders`,
    },
    url,
  };
}

function servicePhoneNumberResource(
  base: string,
  account: AccountRecord,
  service: MessagingServiceRecord,
  entry: MessagingServiceRecord['phoneNumbers'][number],
) {
  const number = account.numbers.find((n) => n.sid === entry.sid);
  const capabilities = number
    ? [number.capabilities.mms && 'MMS', number.capabilities.sms && 'SMS', number.capabilities.voice && 'Voice'].filter(
        (c): c is string => typeof c === 'string',
      )
    : [];
  return {
    sid: entry.sid,
    account_sid: account.sid,
    service_sid: service.sid,
    date_created: iso8601(entry.dateCreated),
    date_updated: iso8601(entry.dateUpdated),
    phone_number: number?.phoneNumber ?? null,
    country_code: number ? countryOf(number.phoneNumber) : null,
    capabilities,
    url: `${base}${servicePath(service.sid)}/PhoneNumbers/${entry.sid}`,
  };
}

// Services

type ServiceKind = ParameterKind | 'boolean' | 'validity' | 'scan';

/** Create and update parameters: Twilio's name → the record's field and how it is checked. */
const SERVICE_PARAMETERS: Record<string, [keyof MessagingServiceRecord, ServiceKind]> = {
  FriendlyName: ['friendlyName', 'text'],
  InboundRequestUrl: ['inboundRequestUrl', 'url'],
  InboundMethod: ['inboundMethod', 'method'],
  FallbackUrl: ['fallbackUrl', 'url'],
  FallbackMethod: ['fallbackMethod', 'method'],
  StatusCallback: ['statusCallback', 'url'],
  StickySender: ['stickySender', 'boolean'],
  MmsConverter: ['mmsConverter', 'boolean'],
  SmartEncoding: ['smartEncoding', 'boolean'],
  ScanMessageContent: ['scanMessageContent', 'scan'],
  FallbackToLongCode: ['fallbackToLongCode', 'boolean'],
  AreaCodeGeomatch: ['areaCodeGeomatch', 'boolean'],
  ValidityPeriod: ['validityPeriod', 'validity'],
  SynchronousValidation: ['synchronousValidation', 'boolean'],
  Usecase: ['usecase', 'text'],
  UseInboundWebhookOnNumber: ['useInboundWebhookOnNumber', 'boolean'],
};

/** The parameters present in the form, checked before anything changes. */
function readServiceParameters(form: URLSearchParams, account: AccountRecord): Partial<MessagingServiceRecord> {
  const plain: Record<string, [string, ParameterKind]> = {};
  const changes: Record<string, unknown> = {};
  for (const [name, [field, kind]] of Object.entries(SERVICE_PARAMETERS)) {
    if (kind === 'text' || kind === 'url' || kind === 'method' || kind === 'application') {
      plain[name] = [field, kind];
      continue;
    }
    const value = form.get(name);
    if (value === null) continue;
    changes[field] = otherParameter(name, value, kind);
  }
  return { ...readParameters(form, plain, account), ...changes } as Partial<MessagingServiceRecord>;
}

function otherParameter(name: string, value: string, kind: 'boolean' | 'validity' | 'scan'): boolean | number | string {
  switch (kind) {
    case 'boolean': {
      const lower = value.toLowerCase();
      if (lower !== 'true' && lower !== 'false')
        throw invalidParameter(INVALID_PARAMETER, `${name} must be true or false, not "${value}"`);
      return lower === 'true';
    }
    case 'validity': {
      const seconds = Number(value);
      if (value.trim() === '' || !Number.isInteger(seconds) || seconds < 1 || seconds > 36_000)
        throw invalidParameter(INVALID_PARAMETER, `${name} must be a whole number of seconds from 1 to 36000, not "${value}"`);
      return seconds;
    }
    case 'scan':
      if (value !== 'inherit' && value !== 'enable' && value !== 'disable')
        throw invalidParameter(INVALID_PARAMETER, `${name} must be inherit, enable or disable, not "${value}"`);
      return value;
  }
}

function listServices({ account, request, base }: V1Context): ApiAnswer {
  return ok(
    listPageV1({
      base,
      path: '/v1/Services',
      key: 'services',
      items: account.messagingServices,
      query: request.query,
      represent: (s) => serviceResource(base, account, s),
    }),
  );
}

function createService({ store, account, request, base }: V1Context): ApiAnswer {
  const changes = readServiceParameters(request.form, account);
  if (!changes.friendlyName)
    throw invalidParameter(INVALID_PARAMETER, 'Missing required parameter FriendlyName in the post body');
  const at = now(store.clock);
  // Twilio's defaults for a service created through the API.
  const service: MessagingServiceRecord = {
    sid: newSid('MG'),
    friendlyName: '',
    inboundRequestUrl: '',
    inboundMethod: 'POST',
    fallbackUrl: '',
    fallbackMethod: 'POST',
    statusCallback: '',
    stickySender: true,
    mmsConverter: true,
    smartEncoding: true,
    scanMessageContent: 'inherit',
    fallbackToLongCode: false,
    areaCodeGeomatch: true,
    validityPeriod: 36_000,
    synchronousValidation: true,
    usecase: 'undeclared',
    useInboundWebhookOnNumber: false,
    ...changes,
    phoneNumbers: [],
    dateCreated: at,
    dateUpdated: at,
  };
  store.change(() => account.messagingServices.push(service));
  return created(serviceResource(base, account, service));
}

function foundService({ account, serviceSid, request }: V1Context): MessagingServiceRecord {
  const service = account.messagingServices.find((s) => s.sid === serviceSid);
  if (!service) throw notFound(request.path);
  return service;
}

function fetchService(context: V1Context): ApiAnswer {
  return ok(serviceResource(context.base, context.account, foundService(context)));
}

function updateService(context: V1Context): ApiAnswer {
  const { store, account, request, base } = context;
  const service = foundService(context);
  const changes = readServiceParameters(request.form, account);
  if (changes.friendlyName === '') throw invalidParameter(INVALID_PARAMETER, 'FriendlyName cannot be empty');
  store.change(() => Object.assign(service, changes, { dateUpdated: now(store.clock) }));
  return ok(serviceResource(base, account, service));
}

/** Its numbers leave the pool with it and go back to their own webhooks; they stay in the account. */
function deleteService(context: V1Context): ApiAnswer {
  const { store, account } = context;
  const service = foundService(context);
  store.change(() => {
    account.messagingServices = account.messagingServices.filter((s) => s !== service);
  });
  return deleted;
}

// The sender pool's PhoneNumbers

function listPhoneNumbers(context: V1Context): ApiAnswer {
  const { account, request, base } = context;
  const service = foundService(context);
  return ok(
    listPageV1({
      base,
      path: `${servicePath(service.sid)}/PhoneNumbers`,
      key: 'phone_numbers',
      items: service.phoneNumbers,
      query: request.query,
      represent: (entry) => servicePhoneNumberResource(base, account, service, entry),
    }),
  );
}

function addPhoneNumber(context: V1Context): ApiAnswer {
  const { store, account, request, base } = context;
  const service = foundService(context);
  const sid = request.form.get('PhoneNumberSid');
  if (sid === null || sid === '')
    throw invalidParameter(INVALID_PARAMETER, 'Missing required parameter PhoneNumberSid in the post body');
  const number: PhoneNumberRecord | undefined = account.numbers.find((n) => n.sid === sid);
  if (!number) throw invalidParameter(PHONE_NUMBER_INVALID, `Phone Number is invalid: ${sid} is not a number of this account`);
  if (!number.capabilities.sms && !number.capabilities.mms)
    throw invalidParameter(PHONE_NUMBER_WITHOUT_MESSAGING, 'Phone Number Does Not Have Correct Messaging Service Capabilities');
  const current = messagingServiceOf(account, sid);
  if (current === service) throw invalidParameter(PHONE_NUMBER_IN_SERVICE, 'Phone Number is already in the Messaging Service');
  if (current)
    throw invalidParameter(
      PHONE_NUMBER_IN_ANOTHER_SERVICE,
      'Phone Number or Short Code is associated with another Messaging Service',
    );
  const at = now(store.clock);
  const entry = { sid, dateCreated: at, dateUpdated: at };
  store.change(() => service.phoneNumbers.push(entry));
  return created(servicePhoneNumberResource(base, account, service, entry));
}

/** By the number's SID or, as Twilio also takes, the number in E.164. */
function foundPhoneNumber(context: V1Context, service: MessagingServiceRecord) {
  const { account, sid, request } = context;
  const number = account.numbers.find((n) => n.sid === sid || n.phoneNumber === sid.replace(/^%2B/i, '+'));
  const entry = number && service.phoneNumbers.find((e) => e.sid === number.sid);
  if (!entry) throw notFound(request.path);
  return entry;
}

function fetchPhoneNumber(context: V1Context): ApiAnswer {
  const service = foundService(context);
  return ok(servicePhoneNumberResource(context.base, context.account, service, foundPhoneNumber(context, service)));
}

function removePhoneNumber(context: V1Context): ApiAnswer {
  const service = foundService(context);
  const entry = foundPhoneNumber(context, service);
  context.store.change(() => {
    service.phoneNumbers = service.phoneNumbers.filter((e) => e !== entry);
  });
  return deleted;
}

const ok = (body: unknown): ApiAnswer => ({ status: 200, body });
const created = (body: unknown): ApiAnswer => ({ status: 201, body });
const deleted: ApiAnswer = { status: 204 };
