import { type AccountRecord, type MessageRecord, rfc2822 } from '../model';
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
    num_media: '0',
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

/** For `/_emulator/` views: the resource, the StatusCallback it was created with and every request made for it. */
export function messageView(account: AccountRecord, message: MessageRecord) {
  return {
    ...messageResource(account, message),
    status_callback: message.statusCallback,
    callbacks: message.callbacks,
    webhooks: message.webhooks,
  };
}

export type MessageView = ReturnType<typeof messageView>;
