import { type AccountRecord, type MediaRecord, type MessageRecord, rfc2822 } from '../model';
import { API_VERSION, accountPath } from '../representation';

/**
 * The Message resource as Twilio's API writes it. Twilio writes `num_segments` and `num_media` as
 * strings. https://www.twilio.com/docs/messaging/api/message-resource
 */
export function messageResource(account: AccountRecord, message: MessageRecord) {
  const uri = `${accountPath(account.sid)}/Messages/${message.sid}`;
  return {
    account_sid: account.sid,
    api_version: API_VERSION,
    body: message.body,
    date_created: rfc2822(message.dateCreated),
    date_sent: message.dateSent ? rfc2822(message.dateSent) : null,
    date_updated: rfc2822(message.dateUpdated),
    direction: message.direction,
    error_code: message.errorCode,
    error_message: message.errorMessage,
    from: message.from,
    messaging_service_sid: null,
    // An MMS counts its MediaUrls until they are fetched (as it sends).
    num_media: String(message.media.length || (message.mediaUrls?.length ?? 0)),
    num_segments: String(message.numSegments),
    price: null,
    price_unit: 'USD',
    sid: message.sid,
    status: message.status,
    subresource_uris: { media: `${uri}/Media.json`, feedback: `${uri}/Feedback.json` },
    to: message.to,
    uri: `${uri}.json`,
  };
}

/** A media item's path without extension: its content; with `.json`, its resource. */
export const mediaPath = (accountSid: string, messageSid: string, mediaSid: string) =>
  `${accountPath(accountSid)}/Messages/${messageSid}/Media/${mediaSid}`;

/** The Media resource as Twilio's API writes it. https://www.twilio.com/docs/messaging/api/media-resource */
export function mediaResource(account: AccountRecord, message: MessageRecord, media: MediaRecord) {
  return {
    account_sid: account.sid,
    content_type: media.contentType,
    date_created: rfc2822(media.dateCreated),
    date_updated: rfc2822(media.dateUpdated),
    parent_sid: message.sid,
    sid: media.sid,
    uri: `${mediaPath(account.sid, message.sid, media.sid)}.json`,
  };
}

/** For `/_emulator/` views: the resource, the StatusCallback it was created with and every request made for it. */
export function messageView(account: AccountRecord, message: MessageRecord) {
  return {
    ...messageResource(account, message),
    status_callback: message.statusCallback,
    callbacks: message.callbacks,
    webhooks: message.webhooks,
    media: message.media.map((m) => ({
      ...mediaResource(account, message, m),
      // What an outbound MMS's MediaUrl answered, and where its bytes are shown without credentials.
      ...(m.sourceUrl ? { source_url: m.sourceUrl, size: m.size, content_url: emulatorMediaPath(message.sid, m.sid) } : {}),
    })),
    media_urls: message.mediaUrls ?? [],
  };
}

export type MessageView = ReturnType<typeof messageView>;

/** Where the phone simulator (and a test) reads a message's media without the account's credentials. */
export const emulatorMediaPath = (messageSid: string, mediaSid: string) => `/_emulator/media/${messageSid}/${mediaSid}`;
