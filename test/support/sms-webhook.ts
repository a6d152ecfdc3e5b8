import { randomBytes } from 'node:crypto';

// Free of vitest (unlike ./sms), so benches can post the same webhook as the tests.

export const newMessageSid = () => `SM${randomBytes(16).toString('hex')}`;

/** Twilio's parameters of an incoming text. https://www.twilio.com/docs/messaging/guides/webhook-request */
export function inboundParams(
  line: { twilio: { accountSid: string }; channel: { identifier: string } },
  text: { from: string; body: string; sid?: string; to?: string },
) {
  const sid = text.sid ?? newMessageSid();
  return {
    AccountSid: line.twilio.accountSid,
    ApiVersion: '2010-04-01',
    Body: text.body,
    From: text.from,
    FromCountry: 'US',
    MessageSid: sid,
    NumMedia: '0',
    NumSegments: '1',
    SmsMessageSid: sid,
    SmsSid: sid,
    SmsStatus: 'received',
    To: text.to ?? line.channel.identifier,
    ToCountry: 'US',
  };
}

/** Twilio's parameters of a status callback for a text the line sent. https://www.twilio.com/docs/messaging/guides/track-outbound-message-status */
export function statusParams(
  line: { twilio: { accountSid: string }; channel: { identifier: string } },
  sid: string,
  status: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    AccountSid: line.twilio.accountSid,
    ApiVersion: '2010-04-01',
    From: line.channel.identifier,
    MessageSid: sid,
    MessageStatus: status,
    SmsSid: sid,
    SmsStatus: status,
    To: '+12025550100',
    ...extra,
  };
}
