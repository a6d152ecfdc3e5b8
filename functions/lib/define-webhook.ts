import { GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import type * as z from 'zod/mini';
import type { HttpContract, TwilioWebhookPath } from '../../shared/contract/route';
import type { ProviderRecord } from '../settings/records';
import { signedWebhookUrl } from '../settings/webhook-urls';
import { AppError, forbidden, notFound } from './app-error';
import { tableName } from './config';
import { db } from './db';
import { withDeadline } from './deadline';
import { bodyText, contentType, errorEnvelope, parse, pathParameters, verifyOrigin } from './define-handler';
import { logWarning } from './log';
import { SECURITY_HEADERS } from './response-headers';
import { decryptSecret } from './secrets';
import { serving } from './serving';
import { keys } from './table';

type Infer<S> = S extends z.ZodMiniType ? z.output<S> : Record<string, never>;

export interface WebhookRequest<C extends HttpContract> {
  /** Twilio's form parameters, signature-checked, then validated by the contract's body schema (a repeated one fails it). */
  params: Infer<C['body']>;
  /** The query string of the URL the platform gave Twilio (it is part of what Twilio signed). */
  query: Record<string, string>;
  /** The provider whose webhook id the path carries, and so the company: never taken from the parameters. */
  provider: WebhookProvider;
}

/** What a webhook knows of its provider. */
export type WebhookProvider = Pick<
  ProviderRecord,
  'id' | 'companyId' | 'webhookId' | 'webhookBaseUrl' | 'previousWebhookBaseUrl' | 'authTokenEncrypted'
>;

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** Twilio reads the answer as TwiML; an empty one does nothing (no reply text, no retry). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/**
 * A Twilio webhook (auth `twilio`): the path's webhook id leads to the provider (unknown: 404), whose
 * auth token checks `X-Twilio-Signature` against the URL the platform configured for this contract's path plus the
 * request's query string — never the URL this request reached, since CloudFront and API Gateway
 * change hosts — and the form parameters (forged or missing: 403, before anything is read or stored).
 * Then the parameters are validated (400) and the answer is the TwiML `fn` returns (empty TwiML when none).
 * Failures answer the error envelope, as every route does.
 */
export function defineWebhook<C extends HttpContract & { path: TwilioWebhookPath }>(
  contract: C,
  /** Answers the TwiML to carry out (voice webhooks); anything else answers an empty document. */
  fn: (req: WebhookRequest<C>) => Promise<unknown>,
): Handler & { readonly contract: C } {
  // The deadline lets what the webhook does keep trying through contention for as long as the
  // function runs (lib/backoff.ts): Twilio does not retry an inbound text, so giving up loses it.
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(errorEnvelope(contract))
    .handler((event, context) => withDeadline(context.getRemainingTimeInMillis?.(), () => answer(event))) as unknown as Handler;
  return serving(contract, handler);

  async function answer(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
    await verifyOrigin(event);
    const provider = await providerOfWebhook(pathParameters<TwilioWebhookPath>(event).webhookId);
    const refused = (reason: SignatureRefusal, message: string) => {
      logSignatureRefused(event, contract, provider, reason);
      return forbidden(message);
    };
    const signature = event.headers?.['x-twilio-signature'];
    if (!signature) throw refused('missing', 'X-Twilio-Signature is missing.');
    const form = formParameters(event);
    if (!provider.webhookBaseUrl) throw refused('unverifiable', 'This webhook cannot be verified: no webhook URL was recorded.');
    const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
    const authToken = await authTokenOf(provider);
    // The base before a re-point verifies too: callbacks of what began before it are signed for it.
    const bases = [provider.webhookBaseUrl, provider.previousWebhookBaseUrl].filter((b): b is string => Boolean(b));
    const signedFor = (webhookBaseUrl: string) =>
      validateRequest(authToken, signature, `${signedWebhookUrl({ ...provider, webhookBaseUrl }, contract)}${query}`, form);
    if (!bases.some(signedFor)) {
      throw refused('mismatch', 'X-Twilio-Signature does not match this request.');
    }
    const twiml = await fn({
      params: parse(contract.body, form, 'body') as Infer<C['body']>,
      query: (event.queryStringParameters ?? {}) as Record<string, string>,
      provider,
    });
    return {
      statusCode: 200,
      headers: { ...SECURITY_HEADERS, 'content-type': 'text/xml; charset=utf-8' },
      body: typeof twiml === 'string' ? twiml : EMPTY_TWIML,
    };
  }
}

type SignatureRefusal = 'missing' | 'mismatch' | 'unverifiable';

/**
 * One log line per refused signature (docs/operations.md: Logs), for an operator to tell a rotated
 * Twilio auth token (every webhook of one id refused) from probes: which webhook and route, why, and
 * the API Gateway request id of the access log line. Never the signature, the auth token or the
 * body: what was signed is Twilio's and the customer's.
 */
function logSignatureRefused(
  event: APIGatewayProxyEventV2,
  contract: HttpContract,
  provider: WebhookProvider,
  reason: SignatureRefusal,
): void {
  logWarning({
    event: 'webhook_signature_refused',
    reason,
    webhookId: provider.webhookId,
    companyId: provider.companyId,
    route: `${contract.method} ${contract.path}`,
    apiRequestId: event.requestContext?.requestId,
    sourceIp: event.requestContext?.http?.sourceIp,
  });
}

/**
 * The provider of a webhook id. Its item carries what the signature check needs (a provider connected
 * before it did leads to the provider record).
 */
async function providerOfWebhook(webhookId: string | undefined): Promise<WebhookProvider> {
  const TableName = tableName();
  const unknown = () => notFound('Unknown webhook');
  if (!webhookId) throw unknown();
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.webhook(webhookId) }));
  if (!Item) throw unknown();
  const webhook = Item as {
    companyId: string;
    providerId: string;
    authTokenEncrypted?: string;
    webhookBaseUrl?: string;
    previousWebhookBaseUrl?: string;
  };
  if (webhook.authTokenEncrypted && webhook.webhookBaseUrl) {
    const { companyId, providerId, authTokenEncrypted, webhookBaseUrl, previousWebhookBaseUrl } = webhook;
    return { id: providerId, companyId, webhookId, authTokenEncrypted, webhookBaseUrl, previousWebhookBaseUrl };
  }
  const { Item: provider } = await db.send(
    new GetCommand({ TableName, Key: keys.provider(webhook.companyId, webhook.providerId) }),
  );
  if (!provider) throw unknown();
  return provider as ProviderRecord;
}

/** Decrypted auth tokens by ciphertext: the same ciphertext always decrypts to the same token, so no KMS call repeats. */
const authTokens = new Map<string, string>();
const MAX_CACHED_TOKENS = 100;

async function authTokenOf(provider: WebhookProvider): Promise<string> {
  const key = `${provider.companyId}:${provider.authTokenEncrypted}`;
  const cached = authTokens.get(key);
  if (cached) return cached;
  const token = await decryptSecret(provider.authTokenEncrypted, provider.companyId);
  if (authTokens.size >= MAX_CACHED_TOKENS) authTokens.clear();
  authTokens.set(key, token);
  return token;
}

/** Twilio posts form parameters; a repeated name keeps every value, as the signature covers them all. */
function formParameters(event: APIGatewayProxyEventV2): Record<string, string | string[]> {
  const raw = bodyText(event);
  if (raw === undefined) return {};
  if (contentType(event) !== 'application/x-www-form-urlencoded') {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Twilio webhooks are form-encoded (application/x-www-form-urlencoded).');
  }
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}
