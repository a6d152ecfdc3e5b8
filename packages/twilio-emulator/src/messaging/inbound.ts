import { randomUUID } from 'node:crypto';
import type { EmulatorEvents } from '../events';
import {
  type AccountRecord,
  type MediaRecord,
  type MessageRecord,
  type MessagingServiceRecord,
  messagingServiceOf,
  newSid,
  now,
  type PhoneNumberRecord,
  type WebhookAttempt,
} from '../model';
import { done, type Outcome, refused } from '../outcome';
import { countryOf } from '../phone-numbers';
import { API_VERSION } from '../representation';
import type { EmulatorStore } from '../store';
import { deliverWebhook } from '../webhooks';
import { applyOptOut } from './opt-out';
import { mediaPath } from './representation';
import { segmentCount, TWILIO_MAX_BODY_LENGTH } from './segments';

/** At most this many deliveries (one after another) or parallel copies of one text. */
export const MAX_DELIVERIES = 20;
/** Twilio takes at most 10 media items in one MMS. https://www.twilio.com/docs/messaging/guides/accepted-mime-types */
export const MAX_MEDIA = 10;
/** A MIME type: type/subtype, as a phone's MMS names its parts. */
const CONTENT_TYPE = /^[a-z]+\/[a-z0-9][a-z0-9.+-]{0,126}$/i;

const E164 = /^\+[1-9]\d{6,14}$/;

export interface TextFromPhone {
  from: string;
  to: string;
  body: string;
  /** The content types of the pictures and files it carries (an MMS); empty for a plain text. */
  media: string[];
  /** How many times the webhook is posted, one after another, as Twilio's retries are. */
  deliveries: number;
  /** How many identical webhooks are posted at once. */
  parallel: number;
  signature: 'valid' | 'invalid';
}

/** The stored message, and the webhook deliveries made for it (the first, and all of them). */
export interface TextReceived {
  sid: string;
  webhook: WebhookAttempt | null;
  webhooks: WebhookAttempt[];
}

/** Reads `POST /_emulator/messages`, with a message a person can act on for each mistake. */
export function readTextFromPhone(input: Record<string, unknown>): TextFromPhone | string {
  const { from, to, body = '', media = [], deliveries = 1, parallel = 1, signature = 'valid' } = input;
  if (typeof from !== 'string' || !E164.test(from)) return 'from must be the sending phone in E.164, e.g. "+14155550199".';
  if (typeof to !== 'string' || !E164.test(to))
    return 'to must be an SMS number of an emulator account in E.164, e.g. "+14155550101".';
  if (!Array.isArray(media) || media.length > MAX_MEDIA)
    return `media must be a list of at most ${MAX_MEDIA} items, e.g. [{"contentType": "image/png"}].`;
  const contentTypes: string[] = [];
  for (const item of media as unknown[]) {
    const contentType = (item as { contentType?: unknown } | null)?.contentType;
    if (typeof contentType !== 'string' || !CONTENT_TYPE.test(contentType))
      return 'Each media item must be {"contentType": "<type>/<subtype>"}, e.g. "image/jpeg".';
    contentTypes.push(contentType.toLowerCase());
  }
  // A picture may come alone; a text without media needs words.
  if (typeof body !== 'string' || body.length > TWILIO_MAX_BODY_LENGTH || (body.length === 0 && contentTypes.length === 0))
    return `body must be a text of 1 to ${TWILIO_MAX_BODY_LENGTH} characters (it may be left out when media is given).`;
  for (const [name, value] of [
    ['deliveries', deliveries],
    ['parallel', parallel],
  ] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DELIVERIES)
      return `${name} must be a whole number from 1 to ${MAX_DELIVERIES}.`;
  }
  if (deliveries !== 1 && parallel !== 1) return 'Give deliveries (one after another) or parallel (at once), not both.';
  if (signature !== 'valid' && signature !== 'invalid')
    return 'signature may only be "invalid" (to sign with a wrong key) or left out.';
  return {
    from,
    to,
    body,
    media: contentTypes,
    deliveries: deliveries as number,
    parallel: parallel as number,
    signature,
  };
}

/**
 * The carrier delivering a text from a phone to an account's number: Twilio stores an inbound Message
 * (status `received`), applies the opt-out keywords, and requests the number's SMS webhook (its
 * application's when it has one) or, when the number is in a Messaging Service that does not use the
 * number's webhook, the service's InboundRequestUrl. Twilio's incoming-message parameters, with
 * MessagingServiceSid when the number is in a service.
 * https://www.twilio.com/docs/messaging/guides/webhook-request
 * https://www.twilio.com/docs/messaging/api/service-resource (use_inbound_webhook_on_number)
 */
export async function receiveText(
  services: { store: EmulatorStore; events: EmulatorEvents; baseUrl: string },
  text: TextFromPhone,
): Promise<Outcome<TextReceived>> {
  const { store, events } = services;
  const owner = store.findNumber(text.to);
  if (!owner) return refused('unknown', `No emulator account has the number ${text.to}.`);
  const { account, number } = owner;
  if (!number.capabilities.sms) return refused('unable', `${text.to} (${number.friendlyName}) cannot receive SMS.`);
  if (text.media.length > 0 && !number.capabilities.mms)
    return refused('unable', `${text.to} (${number.friendlyName}) cannot receive MMS.`);

  const at = now(store.clock);
  const media = text.media.map(
    (contentType): MediaRecord => ({ sid: newSid('ME'), contentType, dateCreated: at, dateUpdated: at }),
  );
  const message: MessageRecord = {
    // Twilio's MMS messages have MM SIDs.
    sid: newSid(media.length > 0 ? 'MM' : 'SM'),
    direction: 'inbound',
    from: text.from,
    to: text.to,
    body: text.body,
    status: 'received',
    numSegments: segmentCount(text.body),
    errorCode: null,
    errorMessage: null,
    statusCallback: '',
    dateCreated: at,
    dateUpdated: at,
    dateSent: at,
    callbacks: [],
    webhooks: [],
    media,
  };
  store.change(() => {
    account.messages.push(message);
    applyOptOut(account, text.to, text.from, text.body);
  });
  events.emit('message', account, message);

  const service = messagingServiceOf(account, number.sid);
  const target = service && !service.useInboundWebhookOnNumber ? serviceWebhook(service) : smsWebhook(account, number);
  if (!target) return done({ sid: message.sid, webhook: null, webhooks: [] });

  const request = {
    ...target,
    params: { ...webhookParams(account, message, services.baseUrl), ...(service ? { MessagingServiceSid: service.sid } : {}) },
    authToken: account.authToken,
    signature: text.signature,
    idempotencyToken: randomUUID(),
  };
  const deliveryOf = () => ({ ...request, lost: store.faults.takeWebhookDrop(account.sid), clock: store.clock });
  const record = (attempt: WebhookAttempt) => {
    if (store.findMessage(message.sid)) store.change(() => message.webhooks.push(attempt));
    events.emit('message', account, message);
    return attempt;
  };
  const webhooks: WebhookAttempt[] = [];
  if (text.parallel > 1) {
    webhooks.push(
      ...(await Promise.all(Array.from({ length: text.parallel }, async () => record(await deliverWebhook(deliveryOf()))))),
    );
  } else {
    for (let i = 0; i < text.deliveries; i++) webhooks.push(record(await deliverWebhook(deliveryOf())));
  }
  return done({ sid: message.sid, webhook: webhooks[0] ?? null, webhooks });
}

function smsWebhook(account: AccountRecord, number: PhoneNumberRecord) {
  const application = number.smsApplicationSid ? account.applications.find((a) => a.sid === number.smsApplicationSid) : undefined;
  const url = application ? application.smsUrl : number.smsUrl;
  const method = application ? application.smsMethod : number.smsMethod;
  return url ? { url, method } : undefined;
}

/** A service without an InboundRequestUrl takes the text without a webhook, as Twilio's "drop the message". */
function serviceWebhook(service: MessagingServiceRecord) {
  return service.inboundRequestUrl ? { url: service.inboundRequestUrl, method: service.inboundMethod } : undefined;
}

/**
 * City, state and ZIP are unknown for fictional numbers; Twilio sends them empty then. Each media item
 * adds MediaContentTypeN and MediaUrlN: the Media resource's URL without `.json`, which answers its content.
 */
function webhookParams(account: AccountRecord, message: MessageRecord, baseUrl: string): Record<string, string> {
  const media = Object.fromEntries(
    message.media.flatMap((item, index) => [
      [`MediaContentType${index}`, item.contentType],
      [`MediaUrl${index}`, `${baseUrl}${mediaPath(account.sid, message.sid, item.sid)}`],
    ]),
  );
  return {
    ...media,
    AccountSid: account.sid,
    ApiVersion: API_VERSION,
    Body: message.body,
    From: message.from,
    FromCity: '',
    FromCountry: countryOf(message.from),
    FromState: '',
    FromZip: '',
    MessageSid: message.sid,
    NumMedia: String(message.media.length),
    NumSegments: String(message.numSegments),
    SmsMessageSid: message.sid,
    SmsSid: message.sid,
    SmsStatus: 'received',
    To: message.to,
    ToCity: '',
    ToCountry: countryOf(message.to),
    ToState: '',
    ToZip: '',
  };
}
