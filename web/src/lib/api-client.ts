import { refresh } from '@shared/contract/endpoints/auth';
import {
  type Answer,
  type AnswerOf,
  type BodyOf,
  type CallInput,
  type Endpoint,
  fillPath,
  type HttpContract,
  type OptionsArg,
} from '@shared/contract/route';
import type { ErrorBody, ErrorCode } from '@shared/envelope';
import type { SessionStore } from './session';

export const API_BASE = '/api/v1';

/** A failed call, carrying the server's message and code from the error envelope. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK_ERROR' | 'INVALID_RESPONSE',
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * How a request is sent: `refresh: false` for a route whose 401 means "wrong credentials" (docs/product.md §8);
 * `binary` for a route that answers bytes: its success is the body as a Blob, its error an envelope.
 */
interface Sending extends RequestOptions {
  refresh: boolean;
  binary?: boolean;
}

/** What a call of the route takes: its contract's params, body and query (CallInput), and an abort signal. */
export type CallOptions<C extends HttpContract> = CallInput<C> & { signal?: AbortSignal };

export type { AnswerOf, BodyOf };

/** The options argument, optional when every option is. */
type CallArgs<C extends HttpContract> = OptionsArg<CallOptions<C>>;

export interface ApiResult<T> {
  data: T;
  message?: string;
}

/** The part of the Web Locks API the client uses (navigator.locks). */
export interface Locks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

const REFRESH_LOCK = 'switchboard-token-refresh';

/** Tries of one refresh that cannot get through (429, 5xx, network) before the waiting calls fail. */
export const REFRESH_ATTEMPTS = 6;
/** The back-off between them: 1 s doubling to 30 s, or the server's Retry-After up to a minute. */
const REFRESH_BACKOFF_BASE_MS = 1000;
const REFRESH_BACKOFF_MAX_MS = 30_000;
const REFRESH_RETRY_AFTER_MAX_MS = 60_000;

/**
 * How long to wait before try `attempt + 1`: the throttle's own answer when it gave one (our 429s
 * carry `retryAfterSeconds`), else exponential back-off with jitter, so the tabs of many people
 * throttled together do not come back in step.
 */
export function refreshDelayMs(attempt: number, error: unknown, random: () => number = Math.random): number {
  const retryAfter = error instanceof ApiError ? Number(error.details?.retryAfterSeconds) : Number.NaN;
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1000, REFRESH_RETRY_AFTER_MAX_MS);
  const ceiling = Math.min(REFRESH_BACKOFF_BASE_MS * 2 ** (attempt - 1), REFRESH_BACKOFF_MAX_MS);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * How near its expiry, either side by this tab's clock, an access token is renewed before a call
 * instead of after the call's 401. The voice token is renewed 10 s before it ends and lives as long as
 * an access token got just before it: without this, each renewal met a 401 first and cost a second
 * request. Beyond the margin on the far side the tab's clock is off (or the tab slept): the
 * 401 decides, so a wrong clock never makes a tab refresh before every call.
 */
export const ACCESS_TOKEN_RENEWAL_MARGIN_MS = 30_000;

/** A JWT's `exp` in ms, read without verifying (the server verifies); undefined for anything else. */
function expiresAtMs(token: string): number | undefined {
  try {
    const payload = token.split('.')[1] ?? '';
    const exp = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one fetch wrapper: JSON, the bearer token, envelope unwrapping, and on a 401 one refresh of the
 * tokens and one retry; when the refresh is refused (401) the session is cleared and `onSignedOut` runs.
 */
export function createApiClient(options: {
  session: SessionStore;
  /** `refusal`: the refresh's 401 when it said why (a removed member is told where from). */
  onSignedOut: (refusal?: ApiError) => void;
  fetch?: typeof fetch;
  /** Shared by the tabs of the app (navigator.locks): only one of them refreshes at a time. */
  locks?: Locks;
  /** Waits between refresh tries (tests: fake timers drive the default). */
  wait?: (ms: number) => Promise<void>;
}) {
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const withRefreshLock = <T>(fn: () => Promise<T>) => (options.locks ? options.locks.request(REFRESH_LOCK, fn) : fn());
  let refreshing: Promise<boolean> | null = null;
  /** The last refresh's 401: what the sign-out passes on. */
  let refusal: ApiError | undefined;

  /** `path` is the whole path (`/api/v1/...`), without the query. */
  async function send<T>(path: string, request: RequestOptions & { binary?: boolean }): Promise<ApiResult<T>> {
    const headers: Record<string, string> = request.binary
      ? { Accept: '*/*' }
      : { 'Content-Type': 'application/json', Accept: 'application/json' };
    const token = options.session.get()?.accessToken;
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await doFetch(`${path}${queryString(request.query)}`, {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
      // A picture's or a recording's bytes stay out of the HTTP cache: after sign-out, a removal or
      // the company's deletion the browser must not show them again (docs/security.md: Media in the browser).
      ...(request.binary ? { cache: 'no-store' as const } : {}),
    });
    if (request.binary && response.ok) return { data: (await response.blob()) as T };
    let envelope: { success?: boolean; data?: T; message?: string; error?: ErrorBody } | undefined;
    try {
      envelope = await response.json();
    } catch {
      envelope = undefined;
    }
    if (response.ok && envelope?.success) return { data: envelope.data as T, message: envelope.message };
    const body = envelope?.error;
    throw new ApiError(
      body?.message || `Request failed (${response.status})`,
      response.status,
      body?.code ?? 'INVALID_RESPONSE',
      body?.details,
    );
  }

  /**
   * One refresh at a time: parallel 401s wait for the same new tokens, and across tabs the lock holder
   * refreshes while the others wait and then take its result from storage.
   *
   * Only a 401 means the session is over. A 429, a 5xx or a network failure says
   * nothing about the session: the refresh token is kept and the refresh tried again with back-off
   * (refreshDelayMs); if it still cannot get through, the caller gets that failure and stays signed in.
   */
  function refreshTokens(): Promise<boolean> {
    const spent = options.session.get()?.refreshToken;
    refreshing ??= withRefreshLock(async () => {
      refusal = undefined;
      for (let attempt = 1; ; attempt++) {
        const refreshToken = options.session.reload()?.refreshToken;
        if (!refreshToken) return false;
        if (refreshToken !== spent) return true;
        try {
          const { data } = await send<AnswerOf<typeof refresh>>(refresh.path, {
            method: refresh.method,
            body: { refreshToken },
          });
          options.session.setTokens(data.tokens);
          return true;
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) {
            refusal = error;
            return false;
          }
          if (attempt >= REFRESH_ATTEMPTS) throw error;
          await wait(refreshDelayMs(attempt, error));
        }
      }
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /** Whether the stored access token is about to expire (ACCESS_TOKEN_RENEWAL_MARGIN_MS) and can be renewed. */
  function dueForRenewal(): boolean {
    const stored = options.session.get();
    const expiresAt = stored?.accessToken && stored.refreshToken ? expiresAtMs(stored.accessToken) : undefined;
    return expiresAt !== undefined && Math.abs(expiresAt - Date.now()) <= ACCESS_TOKEN_RENEWAL_MARGIN_MS;
  }

  async function sendRefreshing<T>(path: string, request: Sending): Promise<ApiResult<T>> {
    // Renewed first when about to expire; a renewal that fails leaves the call to its own 401 handling.
    if (request.refresh && dueForRenewal()) await refreshTokens().catch(() => false);
    const sentWith = options.session.get()?.accessToken;
    try {
      return await send<T>(path, request);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || !request.refresh) throw error;
      // A refresh that ended while this call was in flight has already renewed the token: retry with it.
      // A refresh that could not get through (throttled, server or network down) rejects: that failure
      // is the caller's, and the session stays.
      const current = options.session.get()?.accessToken;
      const renewed = Boolean(current && current !== sentWith) || (await refreshTokens());
      if (renewed) {
        try {
          return await send<T>(path, request);
        } catch (retryError) {
          if (!(retryError instanceof ApiError) || retryError.status !== 401) throw retryError;
        }
      }
      // Parallel calls can all end here; the first one signs out, the rest only fail.
      if (options.session.get()) {
        options.session.clear();
        options.onSignedOut(refusal);
      }
      throw error;
    }
  }

  /**
   * Calls a route by its endpoint (shared/contract/endpoints/): method and path from the contract,
   * options and answer typed by its schemas. A public route's 401 means wrong credentials (login,
   * refresh...): no refresh and retry.
   */
  function callWithMessage<C extends HttpContract>(
    endpoint: Endpoint<C>,
    ...[options]: CallArgs<C>
  ): Promise<ApiResult<Answer<C>>> {
    const { params, body, query, signal } = (options ?? {}) as {
      params?: Record<string, string>;
      body?: unknown;
      query?: Record<string, unknown>;
      signal?: AbortSignal;
    };
    return sendRefreshing<Answer<C>>(fillPath<string>(endpoint.path, params ?? {}), {
      method: endpoint.method,
      body,
      query,
      signal,
      refresh: endpoint.auth !== 'public',
    });
  }

  /**
   * Reads a binary route (`binary: true` in its contract: a picture, a recording) as a Blob, with the
   * bearer token, renewal and the one retry after a 401 of JSON calls; its error answer is an envelope
   * and throws an ApiError. `<img src>` cannot send the token, so the app shows the Blob's object URL.
   */
  function blob<C extends HttpContract & { binary: true }>(endpoint: Endpoint<C>, ...[options]: CallArgs<C>): Promise<Blob> {
    const { params, signal } = (options ?? {}) as { params?: Record<string, string>; signal?: AbortSignal };
    return sendRefreshing<Blob>(fillPath<string>(endpoint.path, params ?? {}), {
      method: endpoint.method,
      signal,
      refresh: true,
      binary: true,
    }).then((r) => r.data);
  }

  /** A raw path below API_BASE, for the client's own tests: the app calls routes by endpoint. */
  const request = <T>(path: string, request: RequestOptions = {}) =>
    sendRefreshing<T>(`${API_BASE}${path}`, { ...request, refresh: true });

  return {
    /** The answer's `data`. */
    call: <C extends HttpContract>(endpoint: Endpoint<C>, ...args: CallArgs<C>) =>
      callWithMessage(endpoint, ...args).then((r) => r.data),
    /** The answer's `data` and its top-level `message`. */
    callWithMessage,
    blob,
    request,
    get: <T>(path: string, o?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, o).then((r) => r.data),
    post: <T>(path: string, body?: unknown, o?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...o, method: 'POST', body }).then((r) => r.data),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** A query as the client sends it: each defined value as a string, in the order given; `''` for none. */
export function queryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** What a failed fetch (offline, DNS, server down) says, instead of the browser's 'Failed to fetch'. */
export const NETWORK_ERROR_MESSAGE = 'Cannot reach Switchboard. Check your connection.';

/**
 * docs/product.md §8: the server's message if present; else 'Request was cancelled. Please try again.' when
 * cancelled; else the network error's message, in words a person understands; else the fallback
 * ('Login failed', 'Registration failed').
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.code !== 'INVALID_RESPONSE' && error.message) return error.message;
  if (error instanceof DOMException && error.name === 'AbortError') return 'Request was cancelled. Please try again.';
  if (error instanceof TypeError && error.message) return NETWORK_ERROR_MESSAGE;
  return fallback;
}
