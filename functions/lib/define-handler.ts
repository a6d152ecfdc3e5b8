import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { MAX_REQUEST_BODY_BYTES } from '../../shared/constants';
import type { Role } from '../../shared/contract/auth';
import type { Answer, HttpContract, PathParams } from '../../shared/contract/route';
import type { ErrorEnvelope, SuccessEnvelope } from '../../shared/envelope';
import { type Principal, verifyAccessToken } from '../auth/access-tokens';
import { getActiveUser, isNamedPlatformAdmin } from '../auth/accounts';
import { liveSession } from '../auth/live-session';
import { AppError, forbidden, notFound, unauthorized } from './app-error';
import { withDeadline } from './deadline';
import { logError } from './log';
import { verifyOrigin } from './origin';
import { SECURITY_HEADERS } from './response-headers';
import { serving } from './serving';

type Infer<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

export interface HttpRequest<C extends HttpContract> {
  body: Infer<C['body']>;
  query: Infer<C['query']>;
  /** The path's `{param}`s by name, as the contract's path names them. */
  params: PathParams<C['path']>;
  principal: C['auth'] extends 'user' | 'platformAdmin' ? Principal : undefined;
  headers: Record<string, string | undefined>;
  sourceIp: string;
  requestId: string;
  event: APIGatewayProxyEventV2;
}

/** What a handler returns: the envelope's `data`, and optionally a top-level message or a status. */
export interface Reply<T> {
  data: T;
  message?: string;
  status?: number;
}

/**
 * What a handler of a `binary` contract returns: the bytes themselves, answered with their type; or
 * where to read them (a 302 to a short-lived URL, for bytes a function's answer cannot carry).
 */
export type BinaryReply =
  | {
      binary: Buffer;
      contentType: string;
      /** e.g. `private, no-store`; absent: no Cache-Control. */
      cacheControl?: string;
      /** `inline` or `attachment; filename="…"`; absent: none. */
      contentDisposition?: string;
    }
  | { redirect: string; cacheControl?: string };

/** A binary contract's handler answers bytes; any other answers its envelope's data. */
type ReplyOf<C extends HttpContract> = C['binary'] extends true ? BinaryReply : Reply<Answer<C>>;

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A route's Lambda handler, recording the contract it serves (routes.test.ts checks it against the route table). */
export type Handler<C = HttpContract> = LambdaHandler & { readonly contract: C };

export { verifyOrigin };

const JSON_HEADERS = { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' };

export function respond(status: number, envelope: SuccessEnvelope<unknown> | ErrorEnvelope): APIGatewayProxyStructuredResultV2 {
  return { statusCode: status, headers: JSON_HEADERS, body: JSON.stringify(envelope) };
}

/**
 * Bytes as payload 2.0 carries them: base64 with `isBase64Encoded`, which API Gateway decodes before
 * the client sees them. `nosniff` (SECURITY_HEADERS) keeps a browser to the type named here.
 */
export function respondBinary(reply: BinaryReply): APIGatewayProxyStructuredResultV2 {
  if ('redirect' in reply) {
    const headers: Record<string, string> = { ...SECURITY_HEADERS, location: reply.redirect };
    if (reply.cacheControl) headers['cache-control'] = reply.cacheControl;
    return { statusCode: 302, headers, body: '' };
  }
  const headers: Record<string, string> = { ...SECURITY_HEADERS, 'content-type': reply.contentType };
  if (reply.cacheControl) headers['cache-control'] = reply.cacheControl;
  if (reply.contentDisposition) headers['content-disposition'] = reply.contentDisposition;
  return { statusCode: 200, headers, body: reply.binary.toString('base64'), isBase64Encoded: true };
}

export function errorResponse(error: AppError): APIGatewayProxyStructuredResultV2 {
  const body: ErrorEnvelope['error'] = { message: error.message, code: error.code };
  if (error.details) body.details = error.details;
  const response = respond(error.status, { success: false, error: body });
  const retryAfter = error.details?.retryAfterSeconds;
  if (error.status === 429 && typeof retryAfter === 'number')
    response.headers = { ...response.headers, 'retry-after': String(retryAfter) };
  return response;
}

/**
 * Wraps a route's domain function: body parsing (JSON or form, base64 as HTTP API v2 sends it),
 * validation from the contract's schemas, authentication from its auth kind, and every failure
 * turned into the error envelope. Unexpected errors answer 500 with a generic message; the cause is
 * logged as one JSON line.
 */
export function defineHandler<C extends HttpContract>(
  contract: C,
  /** Its `data` is what the contract's `response` says (z.output): checked at compile time. */
  fn: (req: HttpRequest<C>) => Promise<ReplyOf<C>>,
): Handler<C> {
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(errorEnvelope(contract))
    .handler(async (event, context) => {
      const viaCloudFront = await verifyOrigin(event);
      const principal = await authenticate(contract, event);
      const req = {
        body: parse(contract.body, readBody(event), 'body'),
        query: parse(contract.query, event.queryStringParameters ?? {}, 'query'),
        params: pathParameters(event),
        principal,
        headers: event.headers ?? {},
        sourceIp: clientAddress(event, viaCloudFront),
        requestId: context.awsRequestId,
        event,
      } as HttpRequest<C>;
      const answer = await withDeadline(context.getRemainingTimeInMillis?.(), () => fn(req));
      if (contract.binary) return respondBinary(answer as BinaryReply);
      const reply = answer as Reply<Answer<C>>;
      const envelope: SuccessEnvelope<Answer<C>> = { success: true, data: reply.data };
      if (reply.message) envelope.message = reply.message;
      return respond(reply.status ?? 200, envelope);
    }) as unknown as LambdaHandler;
  return serving(contract, handler);
}

/** Every failure as the error envelope: an AppError as it is, anything else a logged, generic 500. */
export function errorEnvelope(
  contract: HttpContract,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  return {
    onError: async (request) => {
      const error = request.error;
      if (error instanceof AppError) {
        request.response = errorResponse(error);
        return;
      }
      const known = knownFailure(error);
      logError(
        {
          requestId: request.context.awsRequestId,
          route: `${contract.method} ${contract.path}`,
          companyId: (request.internal as { companyId?: string }).companyId,
        },
        error,
      );
      request.response = known
        ? errorResponse(known)
        : respond(500, {
            success: false,
            error: { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' },
          });
    },
  };
}

/**
 * The table's throughput exceeded after the SDK's own retries (lib/db), or keys a BatchGet still left
 * unprocessed after its (lib/batch-get): the caller may try again shortly.
 */
const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'UnprocessedKeysError',
]);

/** Failures that are nobody's bug, answered as what they are (still logged, for the operator). */
function knownFailure(error: unknown): AppError | undefined {
  if (!(error instanceof Error)) return undefined;
  if (THROTTLING.has(error.name)) {
    return new AppError(503, 'SERVICE_UNAVAILABLE', 'The service is busy right now. Please try again in a moment.');
  }
  // middy's early answer just before Lambda's timeout would stop the function.
  if (error.name === 'TimeoutError' && (error.cause as { package?: string } | undefined)?.package === '@middy/core') {
    return new AppError(504, 'TIMEOUT', 'This took too long and was stopped. Please try again.');
  }
  return undefined;
}

/**
 * The caller's address, as the login and resend throttles count it. Behind CloudFront, API Gateway
 * sees the edge's address; CloudFront passes the viewer's as `CloudFront-Viewer-Address`
 * ("ip:port"), trusted only on a request that carried the origin secret (anyone could send the header).
 */
function clientAddress(event: APIGatewayProxyEventV2, viaCloudFront: boolean): string {
  const viewer = event.headers?.['cloudfront-viewer-address'];
  if (viewer && viaCloudFront) return viewer.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  return event.requestContext?.http?.sourceIp ?? 'unknown';
}

async function authenticate(contract: HttpContract, event: APIGatewayProxyEventV2): Promise<Principal | undefined> {
  if (contract.auth !== 'user' && contract.auth !== 'platformAdmin') return undefined;
  const header = event.headers?.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized('Authentication required');
  const principal = await verifyAccessToken(match[1]);
  // The stored user, not the token's claims: a removal, a role change or the operator naming (or no
  // longer naming) a platform administrator applies to the very next request, as /me reports it.
  // And the stored session: a token of a session that ended is refused at once. The two
  // reads go in parallel, so the session check adds one GetItem but next to no latency.
  const [user, sessionExpiresAt] = await Promise.all([
    getActiveUser(principal.companyId, principal.userId),
    liveSession(principal),
  ]);
  if (!user) throw unauthorized('This account no longer exists.');
  const isPlatformAdmin = isNamedPlatformAdmin(user);
  if (contract.auth === 'platformAdmin' && !isPlatformAdmin) throw forbidden();
  if (contract.roles && !contract.roles.includes(user.role)) throw forbidden(roleMessage(contract.roles));
  return { ...principal, role: user.role, isPlatformAdmin, sessionExpiresAt };
}

const ROLE_NAMES: Record<Role, string> = { OWNER: 'the owner', ADMIN: 'admins', AGENT: 'agents' };

/** 'Only the owner and admins can do this.' */
function roleMessage(roles: readonly Role[]): string {
  const names = roles.map((r) => ROLE_NAMES[r]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return `Only ${list} can do this.`;
}

/**
 * Ids the product hands out are short (UUIDs); a path parameter far longer names nothing, and would
 * not fit a table key (DynamoDB refuses a sort key over 1 KB), so it is answered as not found.
 */
const MAX_PATH_PARAMETER_BYTES = 200;

export function pathParameters<P extends string = string>(event: APIGatewayProxyEventV2): PathParams<P> {
  const params = (event.pathParameters ?? {}) as Record<string, string>;
  if (Object.values(params).some((value) => Buffer.byteLength(value) > MAX_PATH_PARAMETER_BYTES)) throw notFound();
  return params as PathParams<P>;
}

/** The request body as text (HTTP API v2 base64-encodes non-text bodies), within the size limit. */
export function bodyText(event: APIGatewayProxyEventV2): string | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(raw) > MAX_REQUEST_BODY_BYTES) {
    throw new AppError(413, 'PAYLOAD_TOO_LARGE', `Request body is too large (at most ${MAX_REQUEST_BODY_BYTES / 1024} KB)`);
  }
  return raw;
}

export const contentType = (event: APIGatewayProxyEventV2) =>
  (event.headers?.['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();

function readBody(event: APIGatewayProxyEventV2): unknown {
  const raw = bodyText(event);
  if (raw === undefined) return undefined;
  const type = contentType(event);
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(raw));
  if (type !== 'application/json' && !type?.endsWith('+json')) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (Content-Type: application/json)');
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new AppError(400, 'INVALID_JSON', 'Request body is not valid JSON');
  }
}

export function parse(schema: z.ZodMiniType | undefined, input: unknown, where: 'body' | 'query'): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.join('.') : where;
    fields[key] ??= issue.message;
  }
  const first = result.error.issues[0];
  const message =
    first && first.path.length === 0 && where === 'body'
      ? 'Request body must be a JSON object'
      : (first?.message ?? 'Invalid request');
  throw new AppError(400, 'VALIDATION_FAILED', message, { fields });
}
