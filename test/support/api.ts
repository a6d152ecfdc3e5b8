import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { Company, Tokens, User } from '../../shared/contract/auth';
import {
  type Answer,
  type CallInput,
  type Endpoint,
  fillPath,
  type HttpContract,
  type OptionsArg,
} from '../../shared/contract/route';
import { endpoints } from './endpoints';
import type { ProvidedStack } from './test-stack';

let provided: ProvidedStack | undefined;

/** The project's stack, handed over by its setup file once it answers (stack-ready.ts). */
export const setStack = (stack: ProvidedStack) => {
  provided = stack;
};

export const stack = (): ProvidedStack => {
  if (!provided)
    throw new Error('No test stack: this project has none, or its setup file (test/support/stack-ready.ts) has not run');
  return provided;
};

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: {
    success: boolean;
    data: T;
    message?: string;
    error: { message: string; code: string; details?: Record<string, unknown> };
  };
  /** The answer's bytes as they came (a binary route's picture or recording). */
  bytes: Buffer;
}

/** An envelope is JSON; a binary route answers bytes of another type, which are not parsed. */
const isEnvelope = (headers: Headers) => (headers.get('content-type') ?? 'application/json').includes('json');

/**
 * A fresh client address per test, so per-address throttling of one test never touches another: a
 * loopback address (all of 127.0.0.0/8 is this machine) that requests really come from, since the
 * gateway, like CloudFront, records the address a request came from and ignores what it claims.
 */
export function newClientAddress(): string {
  const b = randomBytes(3);
  return `127.${b[0]}.${b[1]}.${Math.max(2, b[2] ?? 2)}`;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
  address?: string;
  /** The gateway to ask (`http://127.0.0.1:<port>`): a test file's own (own-gateway.ts); the stack's by default. */
  origin?: string;
}

/** A real HTTP request to the local gateway, from `address` when given. */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
  // node:http sends a DELETE's body neither chunked nor with a length unless told (a browser tells).
  if (body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(body));
  const res = await send(new URL(path, options.origin ?? stack().urls.api), {
    method: options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET'),
    headers,
    body,
    localAddress: options.address,
  });
  const text = res.bytes.toString('utf8');
  return {
    status: res.status,
    headers: res.headers,
    body: text && isEnvelope(res.headers) ? JSON.parse(text) : undefined,
    bytes: res.bytes,
  };
}

/**
 * A call's options: the route's `params`, `body` and `query` as its contract types them (CallInput, as
 * the web client takes them), or instead of the body a `rawBody`; and what `api` takes besides (token,
 * address, origin, headers).
 * The method is the endpoint's.
 */
export type CallOptions<C extends HttpContract> = (
  | CallInput<C>
  /** Bytes sent as they are (malformed JSON, another content type) instead of the body. */
  | (Omit<CallInput<C>, 'body'> & { body?: never; rawBody: string })
) &
  Omit<RequestOptions, 'method' | 'body' | 'rawBody'>;

/**
 * Calls a route by its endpoint (`callRoute(endpoints.sendMessage, { params: { id }, body: { body: 'hi' }, token })`,
 * shared/contract/endpoints/): its method, its
 * path with the `{param}`s filled (fillPath, each URL-encoded) and the query encoded, as `api` sends a
 * request; the answer's `data` typed as the route's Answer. Not `call`: the tests' phone calls have that name. A body or query the contract does not take
 * goes through `unchecked(...)`; a malformed or unknown path through `api`.
 */
export function callRoute<C extends HttpContract>(
  endpoint: Endpoint<C>,
  ...[options]: OptionsArg<CallOptions<C>>
): Promise<ApiResponse<Answer<C>>> {
  const { params, query, ...rest } = (options ?? {}) as Omit<RequestOptions, 'method'> & {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
  };
  return api<Answer<C>>(`${fillPath<string>(endpoint.path, params ?? {})}${queryString(query)}`, {
    ...rest,
    method: endpoint.method,
  });
}

/** A query as the web client encodes one: each defined value as a string, in the order given. */
function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * A body, query or param value sent as it is, unchecked by the contract's types: what a test of a
 * route's validation sends (`callRoute(endpoints.login, { body: unchecked({ email: 3 }) })`), or a
 * helper that passes on whatever its test gives it.
 */
export const unchecked = (value: unknown): never => value as never;

/** node:http rather than fetch: only it can choose the local address a request leaves from. */
function send(
  url: URL,
  options: { method: string; headers: Record<string, string>; body?: string; localAddress?: string },
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method, headers: options.headers, localAddress: options.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
        }
        resolve({ status: res.statusCode ?? 0, headers, bytes: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface SentMail {
  to: string[];
  subject: string;
  html: string;
  text: string;
}

/** Mail the SES emulator holds for an address, oldest first. */
export async function mailTo(email: string): Promise<SentMail[]> {
  const res = await fetch(`${stack().urls.mail}/store`);
  const store = (await res.json()) as {
    emails: { destination: { to: string[] }; subject: string; body: { html?: string; text?: string } }[];
  };
  return store.emails
    .filter((e) => e.destination.to.includes(email))
    .map((e) => ({ to: e.destination.to, subject: e.subject, html: e.body.html ?? '', text: e.body.text ?? '' }));
}

export function verificationToken(mail: SentMail): string {
  const match = /verify-email[?#]token=([\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No verification link in: ${mail.text}`);
  return match[1];
}

/** Spends a verification token the way the web app does: in a POST body, never in a URL. */
export const verifyEmail = (token: string, origin?: string) => callRoute(endpoints.verifyEmail, { body: { token }, origin });

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.test`;

export interface Account {
  email: string;
  password: string;
  user: User;
  company: Company;
  tokens: Tokens;
}

/** Signs in again from a new address: another session (device) of the same user. */
export async function signIn(account: { email: string; password: string }) {
  const res = await callRoute(endpoints.login, {
    body: { email: account.email, password: account.password },
    address: newClientAddress(),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Spends a refresh token as the web app does. */
export const refresh = (refreshToken: string) => callRoute(endpoints.refresh, { body: { refreshToken } });

/** Registers, opens the mailed link and returns the signed-in session: the path every user takes. `origin` as for `api`. */
export async function signUp(
  overrides: Partial<{ email: string; password: string; name: string; companyName: string }> = {},
  { origin }: { origin?: string } = {},
) {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const registered = await callRoute(endpoints.register, {
    body: { companyName: overrides.companyName ?? 'Acme Support', name: overrides.name ?? 'Ada Lovelace', email, password },
    address: newClientAddress(),
    origin,
  });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const [mail] = await mailTo(email.toLowerCase());
  if (!mail) throw new Error('no verification mail');
  const verified = await verifyEmail(verificationToken(mail), origin);
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  return { email: email.toLowerCase(), password, ...verified.body.data } satisfies Account;
}
