import type { ApiAnswer, Context, Route } from '../api-route';
import { type MessageRecord, newSid, now } from '../model';
import { listPage } from '../paging';
import { accountPath } from '../representation';
import { INVALID_URL, invalidParameter, notFound } from '../twilio-errors';
import { mediaContent } from './media-content';
import { isOptedOut } from './opt-out';
import { mediaResource, messageResource } from './representation';
import { segmentCount, TWILIO_MAX_BODY_LENGTH } from './segments';

/**
 * Twilio's test numbers for message failures, honoured with any credentials here.
 * https://www.twilio.com/docs/iam/test-credentials#test-sms-messages
 */
export const TEST_NUMBERS = {
  /** Refused at creation: 21211, not a valid phone number. */
  invalid: '+15005550001',
  /** Refused at creation: 21612, not reachable via SMS. */
  unreachable: '+15005550009',
  /** Accepted, then `undelivered` with ErrorCode 30003 (unreachable handset). */
  undeliverable: '+15005550006',
} as const;

/** A message carries up to 10 MediaUrls. https://www.twilio.com/docs/messaging/api/message-resource */
export const MAX_MEDIA_URLS = 10;

/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

export const messageRoutes: Route[] = [
  { pattern: /^\/Messages\.json$/, methods: { GET: listMessages, POST: createMessage } },
  { pattern: /^\/Messages\/([^/]+)\.json$/, methods: { GET: fetchMessage } },
  { pattern: /^\/Messages\/([^/]+)\/Media\.json$/, methods: { GET: listMedia } },
  { pattern: /^\/Messages\/([^/]+)\/Media\/([^/.]+)\.json$/, methods: { GET: fetchMedia } },
  { pattern: /^\/Messages\/([^/]+)\/Media\/([^/.]+)$/, methods: { GET: fetchMediaContent } },
];

/** Messages are listed newest first, as Twilio lists them; `To` and `From` filter by exact number. */
function listMessages({ account, request }: Context): ApiAnswer {
  const to = request.query.get('To');
  const from = request.query.get('From');
  const items = account.messages.filter((m) => (to === null || m.to === to) && (from === null || m.from === from)).reverse();
  return {
    status: 200,
    body: listPage({
      path: `${accountPath(account.sid)}/Messages.json`,
      key: 'messages',
      items,
      query: request.query,
      filters: [
        ...(to === null ? [] : [['To', to] as [string, string]]),
        ...(from === null ? [] : [['From', from] as [string, string]]),
      ],
      represent: (m) => messageResource(account, m),
    }),
  };
}

function fetchMessage({ account, request, sid }: Context): ApiAnswer {
  const message = account.messages.find((m) => m.sid === sid);
  if (!message) throw notFound(request.path);
  return { status: 200, body: messageResource(account, message) };
}

/** A message's media, oldest first; another account's message is not found, as Twilio answers. */
function listMedia({ account, request, sids }: Context): ApiAnswer {
  const message = account.messages.find((m) => m.sid === sids[0]);
  if (!message) throw notFound(request.path);
  return {
    status: 200,
    body: listPage({
      path: `${accountPath(account.sid)}/Messages/${message.sid}/Media.json`,
      key: 'media_list',
      items: message.media,
      query: request.query,
      filters: [],
      represent: (m) => mediaResource(account, message, m),
    }),
  };
}

function mediaOf({ account, request, sids }: Context) {
  const message = account.messages.find((m) => m.sid === sids[0]);
  const media = message?.media.find((m) => m.sid === sids[1]);
  if (!message || !media) throw notFound(request.path);
  return { message, media };
}

function fetchMedia(context: Context): ApiAnswer {
  const { message, media } = mediaOf(context);
  return { status: 200, body: mediaResource(context.account, message, media) };
}

/**
 * The media's content with its Content-Type, behind the account's credentials as Twilio serves it
 * when HTTP Basic authentication for media is on. https://www.twilio.com/docs/messaging/api/media-resource
 */
function fetchMediaContent(context: Context): ApiAnswer {
  const { media } = mediaOf(context);
  return {
    status: 200,
    body: context.store.mediaBytes.get(media.sid) ?? mediaContent(media.sid, media.contentType),
    headers: { 'Content-Type': media.contentType, 'Cache-Control': 'private, max-age=3600' },
  };
}

/**
 * Checks in the order Twilio answers (required parameters, then the numbers, then the body) and
 * refuses with Twilio's codes and messages; an accepted message starts `queued` and the carrier
 * advances it. https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource
 */
function createMessage({ store, events, account, request }: Context): ApiAnswer {
  const form = request.form;
  const to = form.get('To')?.trim() ?? '';
  const from = form.get('From')?.trim() ?? '';
  const body = form.get('Body') ?? '';
  const statusCallback = form.get('StatusCallback') ?? '';
  const mediaUrls = form.getAll('MediaUrl');
  if (!to) throw invalidParameter(21604, "A 'To' phone number is required.");
  if (!from) throw invalidParameter(21603, "A 'From' phone number is required.");
  // Body or MediaUrl: an MMS may be pictures only. https://www.twilio.com/docs/api/errors/21602
  if (!body && mediaUrls.length === 0) throw invalidParameter(21602, 'Message body is required.');
  // https://www.twilio.com/docs/api/errors/21620 and /21623
  if (mediaUrls.some((u) => !isHttpUrl(u)))
    throw invalidParameter(21620, `Media urls: ${mediaUrls.join(', ')} are invalid. Please use only valid http and https urls`);
  if (mediaUrls.length > MAX_MEDIA_URLS) throw invalidParameter(21623, 'Number of media files exceeds allowed limit');
  if (!E164.test(to) || to === TEST_NUMBERS.invalid)
    throw invalidParameter(21211, `The 'To' number ${to} is not a valid phone number.`);
  const number = account.numbers.find((n) => n.phoneNumber === from);
  if (!number?.capabilities.sms)
    throw invalidParameter(
      21606,
      `The 'From' phone number provided (${from}) is not a valid message-capable Twilio phone number for this destination/account.`,
    );
  if (body.length > TWILIO_MAX_BODY_LENGTH)
    throw invalidParameter(21617, `The concatenated message body exceeds the ${TWILIO_MAX_BODY_LENGTH} character limit.`);
  if (statusCallback && !isHttpUrl(statusCallback))
    throw invalidParameter(INVALID_URL, `StatusCallback is not a valid URL: ${statusCallback}`);
  if (to === TEST_NUMBERS.unreachable)
    throw invalidParameter(
      21612,
      `The 'To' phone number: ${to}, is not currently reachable using the 'From' phone number: ${from} via SMS.`,
    );
  if (isOptedOut(account, from, to)) throw invalidParameter(21610, 'Attempt to send to unsubscribed recipient');

  const at = now(store.clock);
  const message: MessageRecord = {
    sid: newSid('SM'),
    direction: 'outbound-api',
    from,
    to,
    body,
    status: 'queued',
    numSegments: segmentCount(body),
    errorCode: null,
    errorMessage: null,
    statusCallback,
    dateCreated: at,
    dateUpdated: at,
    dateSent: null,
    callbacks: [],
    webhooks: [],
    media: [],
    ...(mediaUrls.length ? { mediaUrls } : {}),
  };
  store.change(() => account.messages.push(message));
  events.emit('message', account, message);
  return { status: 201, body: messageResource(account, message) };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
