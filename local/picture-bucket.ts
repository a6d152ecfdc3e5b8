import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Logger } from './log';

/**
 * The pictures bucket's stand-in (docs/architecture.md §1; docs/local-stack.md: The pictures bucket): s3rver,
 * a real S3-compatible server (objects on disk, HeadObject, ranged GetObject, ListObjectsV2,
 * DeleteObjects, S3's XML errors), run in this process behind a strict layer that makes it refuse what
 * AWS refuses and s3rver lets through:
 * - a request without a signature is refused 403 AccessDenied (a private bucket, all public access blocked);
 * - every Signature Version 4, in the Authorization header or in a presigned URL's query, is computed
 *   again and compared: a wrong key or signature, or a signed header (Content-Type, Content-Length) the
 *   request does not carry as signed, answers 403 SignatureDoesNotMatch (s3rver skips V4 checks);
 * - a presigned URL past X-Amz-Date + X-Amz-Expires answers 403 "Request has expired", on this
 *   process's clock (local/clock.ts moves it), and a header-signed request more than 15 minutes off it
 *   403 RequestTimeTooSkewed;
 * - two ways of authenticating at once (a bearer token beside a presigned URL) answer 400;
 * - CORS is the bucket's rule (the web app's origin; PUT and GET; Content-Type): a preflight from
 *   another origin answers 403, and answers carry Access-Control-Allow-Origin for that origin only.
 * s3rver then serves the request with the signature removed (it would otherwise check the time again on
 * the wall clock).
 */

export const PICTURE_BUCKET_NAME = 'switchboard-pictures';

/** The bucket's CORS rule, as the CDK stack declares it (infra/constructs/picture-bucket.ts). */
export interface BucketCors {
  allowedOrigins: readonly string[];
  allowedMethods: readonly string[];
  allowedHeaders: readonly string[];
  exposedHeaders: readonly string[];
  maxAgeSeconds: number;
}

export const pictureBucketCors = (webOrigin: string): BucketCors => ({
  allowedOrigins: [webOrigin],
  allowedMethods: ['PUT', 'GET'],
  allowedHeaders: ['content-type'],
  exposedHeaders: ['etag'],
  maxAgeSeconds: 3000,
});

interface S3rverApp {
  configureBuckets(): Promise<unknown>;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}

type S3rverClass = new (options: Record<string, unknown>) => S3rverApp;

export async function startPictureBucket(options: {
  port: number;
  /** Where s3rver keeps the objects (npm start: under the data folder, so they outlive a restart). */
  directory: string;
  /** The secret of an access key the functions sign with (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY); undefined: unknown key. */
  secretOf: (accessKeyId: string) => string | undefined;
  cors: BucketCors;
  log: Logger;
  /** The clock expiry is judged by; Date.now by default (which local/clock.ts moves). */
  now?: () => number;
}) {
  mkdirSync(options.directory, { recursive: true });
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const s3rver = new S3rver({
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: PICTURE_BUCKET_NAME }],
  });
  await s3rver.configureBuckets();
  const serve = s3rver.callback();
  const now = options.now ?? (() => Date.now());
  const server = createServer((req, res) => {
    const refusal = strictly(req, res, { ...options, now });
    if (refusal) {
      answerError(res, refusal);
      return;
    }
    if (req.method === 'OPTIONS') return;
    serve(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // localhost, not 127.0.0.1: the browser fetches these URLs too, and its page is served from localhost.
  const endpoint = `http://localhost:${port}`;
  options.log.info(`pictures bucket ${PICTURE_BUCKET_NAME} at ${endpoint} (s3rver, strict signatures)`);
  return {
    endpoint,
    bucket: PICTURE_BUCKET_NAME,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Refusal {
  status: number;
  code: string;
  message: string;
}

const refuse = (status: number, code: string, message: string): Refusal => ({ status, code, message });

/**
 * The checks AWS makes and s3rver does not; undefined when the request may go on (an allowed preflight
 * is answered here). Strips the signature from a request it lets through.
 */
function strictly(
  req: IncomingMessage,
  res: ServerResponse,
  options: { secretOf: (accessKeyId: string) => string | undefined; cors: BucketCors; now: () => number },
): Refusal | undefined {
  const { cors } = options;
  const origin = req.headers.origin;
  const allowedOrigin = origin && cors.allowedOrigins.includes(origin) ? origin : undefined;
  if (req.method === 'OPTIONS') return preflight(req, res, cors, allowedOrigin);
  if (allowedOrigin) {
    res.setHeader('Access-Control-Allow-Origin', allowedOrigin);
    res.setHeader('Access-Control-Expose-Headers', cors.exposedHeaders.join(', '));
    res.setHeader('Vary', 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method');
  }

  const url = new URL(req.url ?? '/', 'http://bucket');
  const header = req.headers.authorization;
  const query = url.searchParams.has('X-Amz-Algorithm');
  if (header && query) {
    return refuse(
      400,
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
    );
  }
  if (!header && !query) return refuse(403, 'AccessDenied', 'Access Denied');
  const refusal = query ? checkPresigned(req, url, options) : checkHeaderSigned(req, url, header ?? '', options);
  if (refusal) return refusal;

  // Signed and in time: s3rver serves it without the signature, so it does not judge the time again.
  delete req.headers.authorization;
  for (const name of [...url.searchParams.keys()]) if (/^x-amz-/i.test(name)) url.searchParams.delete(name);
  // An x-amz- header tells s3rver this is an API request, as the signature did.
  req.headers['x-amz-content-sha256'] ??= 'UNSIGNED-PAYLOAD';
  req.url = `${url.pathname}${url.search}`;
  return undefined;
}

function preflight(req: IncomingMessage, res: ServerResponse, cors: BucketCors, origin: string | undefined): Refusal | undefined {
  const method = req.headers['access-control-request-method'];
  if (!req.headers.origin) return refuse(400, 'BadRequest', 'Insufficient information. Origin request header needed.');
  if (!method) return refuse(400, 'BadRequest', 'Invalid Access-Control-Request-Method: null');
  const headers = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  if (!origin || !cors.allowedMethods.includes(method) || headers.some((h) => !cors.allowedHeaders.includes(h))) {
    return refuse(
      403,
      'AccessForbidden',
      "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
    );
  }
  res.writeHead(200, {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': cors.allowedMethods.join(', '),
    ...(headers.length ? { 'Access-Control-Allow-Headers': headers.join(', ') } : {}),
    'Access-Control-Expose-Headers': cors.exposedHeaders.join(', '),
    'Access-Control-Max-Age': String(cors.maxAgeSeconds),
    Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  });
  res.end();
  return undefined;
}

/** A presigned URL (query parameters): its signature, and whether it is still in time. */
function checkPresigned(
  req: IncomingMessage,
  url: URL,
  options: { secretOf: (accessKeyId: string) => string | undefined; now: () => number },
): Refusal | undefined {
  const q = url.searchParams;
  const credential = q.get('X-Amz-Credential');
  const amzDate = q.get('X-Amz-Date');
  const expires = Number(q.get('X-Amz-Expires'));
  const signedHeaders = q.get('X-Amz-SignedHeaders');
  const signature = q.get('X-Amz-Signature');
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !credential || !amzDate || !signedHeaders || !signature) {
    return refuse(
      400,
      'AuthorizationQueryParametersError',
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  const signedAt = parseAmzDate(amzDate);
  if (!Number.isInteger(expires) || expires < 1 || expires > 604_800 || signedAt === undefined) {
    return refuse(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be between 1 and 604800 seconds');
  }
  if (options.now() > signedAt + expires * 1000) return refuse(403, 'AccessDenied', 'Request has expired');
  const canonicalQuery = canonicalQueryString(url, (name) => name !== 'X-Amz-Signature');
  return checkSignature(req, url, options.secretOf, {
    credential,
    amzDate,
    signedHeaders,
    signature,
    canonicalQuery,
    payloadHash: 'UNSIGNED-PAYLOAD',
  });
}

/** A request signed in its Authorization header (the functions' SDK client). */
function checkHeaderSigned(
  req: IncomingMessage,
  url: URL,
  header: string,
  options: { secretOf: (accessKeyId: string) => string | undefined; now: () => number },
): Refusal | undefined {
  const match = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(header);
  if (!match) return refuse(400, 'InvalidArgument', 'Unsupported Authorization Type');
  const [, credential, signedHeaders, signature] = match as unknown as [string, string, string, string];
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === undefined) return refuse(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  if (Math.abs(options.now() - signedAt) > 15 * 60_000) {
    return refuse(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  }
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!payloadHash) return refuse(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  return checkSignature(req, url, options.secretOf, {
    credential,
    amzDate,
    signedHeaders,
    signature,
    canonicalQuery: canonicalQueryString(url, () => true),
    payloadHash,
  });
}

function checkSignature(
  req: IncomingMessage,
  url: URL,
  secretOf: (accessKeyId: string) => string | undefined,
  signed: {
    credential: string;
    amzDate: string;
    signedHeaders: string;
    signature: string;
    canonicalQuery: string;
    payloadHash: string;
  },
): Refusal | undefined {
  const [accessKeyId, day, region, service, terminator] = signed.credential.split('/');
  const secret = accessKeyId === undefined ? undefined : secretOf(accessKeyId);
  if (secret === undefined) {
    return refuse(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  if (!day || !region || service !== 's3' || terminator !== 'aws4_request') {
    return refuse(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed; the Credential is mal-formed.');
  }
  const names = signed.signedHeaders.split(';');
  if (!names.includes('host'))
    return refuse(403, 'AccessDenied', 'There were headers present in the request which were not signed');
  const canonicalHeaders = names.map((name) => `${name}:${headerValue(req, name).trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [
    req.method,
    canonicalPath(url.pathname),
    signed.canonicalQuery,
    canonicalHeaders,
    signed.signedHeaders,
    signed.payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/${service}/${terminator}`;
  const stringToSign = ['AWS4-HMAC-SHA256', signed.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${secret}`, day);
  for (const part of [region, service, terminator]) key = hmac(key, part);
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(signed.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return refuse(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
  return undefined;
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** S3's canonical URI: the path as sent, each segment encoded once. */
const canonicalPath = (path: string) =>
  path
    .split('/')
    .map((segment) => rfc3986(decodeURIComponent(segment)))
    .join('/');

function canonicalQueryString(url: URL, keep: (name: string) => boolean): string {
  return [...url.searchParams.entries()]
    .filter(([name]) => keep(name))
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function parseAmzDate(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

function answerError(res: ServerResponse, refusal: Refusal): void {
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  res.writeHead(refusal.status, { 'Content-Type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${xml(refusal.message)}</Message></Error>`,
  );
}
