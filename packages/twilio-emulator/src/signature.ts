import { createHmac } from 'node:crypto';

/** Form parameters of a webhook; a repeated parameter carries every value. */
export type WebhookParams = Readonly<Record<string, string | readonly string[]>>;

/**
 * `X-Twilio-Signature` exactly as Twilio computes it: the full URL Twilio requests (query string
 * included), followed by every POST parameter as name then value, sorted by name (and a repeated
 * name by value), HMAC-SHA1 with the account's auth token, base64.
 * https://www.twilio.com/docs/usage/webhooks/webhooks-security
 */
export function twilioSignature(authToken: string, url: string, params: WebhookParams = {}): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    const values = typeof value === 'string' ? [value] : [...(value ?? [])].sort();
    for (const v of values) data += name + v;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}
