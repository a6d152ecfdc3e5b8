import { randomUUID } from 'node:crypto';
import type { Clock } from './clock';
import { now, type WebhookAttempt, type WebhookMethod } from './model';
import { twilioSignature, type WebhookParams } from './signature';

/** Twilio gives up on a webhook after 15 seconds. https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides */
const TIMEOUT_MS = 15_000;
/** How much of an answer is kept for the accounts view and the phone simulator. */
const KEPT_BODY_CHARS = 2_000;

export interface WebhookRequest {
  url: string;
  method: WebhookMethod;
  params: Record<string, string>;
  authToken: string;
  /** 'invalid' signs with a wrong key, for tests of forgery handling. */
  signature?: 'valid' | 'invalid';
  /** The same for every retry of one event, as Twilio's `I-Twilio-Idempotency-Token`. */
  idempotencyToken?: string;
  signal?: AbortSignal;
  /** How much of the answer is kept; a TwiML document needs all of it (Twilio reads up to 64 KB). */
  keepChars?: number;
  /** Lost on the way (the `webhooks.drop` fault): no request is made, as when the network loses it. */
  lost?: boolean;
  /** When the attempt is recorded as made. */
  clock: Clock;
}

/**
 * Makes one request as Twilio makes it: a POST with the parameters form-encoded, or a GET with them
 * in the query string (then the signature covers the URL alone, which now carries them). Never
 * throws: a refused connection or a timeout is an attempt with status null.
 */
export async function deliverWebhook(request: WebhookRequest): Promise<WebhookAttempt> {
  const { method, params } = request;
  const form = new URLSearchParams(params);
  let url = request.url;
  if (method === 'GET') {
    const target = new URL(url);
    for (const [name, value] of form) target.searchParams.append(name, value);
    url = target.toString();
  }
  const signedParams: WebhookParams = method === 'POST' ? params : {};
  const key = request.signature === 'invalid' ? `not-${request.authToken}` : request.authToken;
  const at = now(request.clock);
  if (request.lost) return { url: request.url, method, status: null, body: 'No answer: lost on the way (webhooks fault)', at };
  try {
    const res = await fetch(url, {
      method,
      headers: {
        'X-Twilio-Signature': twilioSignature(key, url, signedParams),
        'I-Twilio-Idempotency-Token': request.idempotencyToken ?? randomUUID(),
        'User-Agent': 'TwilioProxy/1.1',
        Accept: '*/*',
        ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' } : {}),
      },
      body: method === 'POST' ? form.toString() : undefined,
      signal: request.signal
        ? AbortSignal.any([request.signal, AbortSignal.timeout(TIMEOUT_MS)])
        : AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    return { url: request.url, method, status: res.status, body: text.slice(0, request.keepChars ?? KEPT_BODY_CHARS), at };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { url: request.url, method, status: null, body: `No answer: ${cause}`, at };
  }
}
