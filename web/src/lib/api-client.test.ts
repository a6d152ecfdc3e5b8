import * as auth from '@shared/contract/endpoints/auth';
import * as calls from '@shared/contract/endpoints/calls';
import * as contacts from '@shared/contract/endpoints/contacts';
import * as conversations from '@shared/contract/endpoints/conversations';
import { describe, expect, it, vi } from 'vitest';
import { sampleCompany, sampleUser } from '../test-utils';
import {
  ApiError,
  createApiClient,
  errorMessage,
  type Locks,
  NETWORK_ERROR_MESSAGE,
  REFRESH_ATTEMPTS,
  refreshDelayMs,
} from './api-client';
import { createSessionStore, SESSION_KEYS } from './session';

// This file tests the client itself: how it writes a URL (API_BASE below a raw path, a filled and
// encoded path, the query in order), so the URLs it expects stay typed out here; other tests name
// endpoints (test-utils: urlOf, callLine, isCall).

const user = sampleUser;
const company = sampleCompany;

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | null | undefined;
  cache: RequestCache | undefined;
}

/** A minimal Response: the client reads only ok, status and json(). */
function reply(status: number, body: unknown): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    json: async () => (typeof body === 'string' ? JSON.parse(body) : body),
  } as Response;
}

const ok = (data: unknown, message?: string) => reply(200, { success: true, data, ...(message ? { message } : {}) });
const fail = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
  reply(status, { success: false, error: { code, message, ...(details ? { details } : {}) } });
const unauthorized = () => fail(401, 'TOKEN_EXPIRED', 'Access token expired');

/** A fake `fetch` that records every request and answers with `handler`. */
function fakeServer(handler: (request: Recorded) => Response | Promise<Response>) {
  const requests: Recorded[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const recorded: Recorded = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
      signal: init?.signal,
      cache: init?.cache,
    };
    requests.push(recorded);
    return handler(recorded);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

function signedIn(tokens: { accessToken: string; refreshToken?: string } = { accessToken: 'old', refreshToken: 'r1' }) {
  window.localStorage.setItem('accessToken', tokens.accessToken);
  if (tokens.refreshToken) window.localStorage.setItem('refreshToken', tokens.refreshToken);
  window.localStorage.setItem('user', JSON.stringify(user));
  window.localStorage.setItem('company', JSON.stringify(company));
  return createSessionStore(window.localStorage);
}

function setup(handler: (request: Recorded) => Response | Promise<Response>, session = signedIn()) {
  const server = fakeServer(handler);
  const onSignedOut = vi.fn();
  /** The waits between refresh tries, in ms; each ends at once (what is asserted is the wait asked for). */
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  const api = createApiClient({ session, onSignedOut, fetch: server.fetch, wait });
  return { api, session, onSignedOut, requests: server.requests, waits };
}

/** Answers protected calls by token: the old token gets 401, the new one succeeds; refresh rotates. */
function rotatingServer(request: Recorded) {
  if (request.url === auth.refresh.path) return ok({ tokens: { accessToken: 'new', refreshToken: 'r2' } });
  if (request.headers.Authorization === 'Bearer new') return ok({ path: request.url });
  return unauthorized();
}

const summary = (requests: Recorded[]) => requests.map((r) => `${r.method} ${r.url} ${r.headers.Authorization ?? '-'}`);

/** Lets every pending promise continuation run (the fake server answers in microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('createApiClient: requests', () => {
  it('sends JSON with the bearer token of the stored session', async () => {
    const { api, requests } = setup(() => ok({ contacts: [] }));
    await api.get('/contacts', { query: { search: 'ada', limit: 100, skip: undefined } });
    await api.post('/contacts', { name: 'Ada', phoneNumber: '+15550100' });

    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      url: '/api/v1/contacts?search=ada&limit=100',
      method: 'GET',
      body: undefined,
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer old' },
    });
    expect(requests[1]).toMatchObject({
      url: '/api/v1/contacts',
      method: 'POST',
      body: { name: 'Ada', phoneNumber: '+15550100' },
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer old' },
    });
  });

  it("calls a route by its endpoint: the contract's method, its path with the parameters filled and encoded", async () => {
    const { api, requests } = setup(() => ok({ message: { id: 'm/1' } }));
    const controller = new AbortController();
    const answer = await api.call(conversations.retryMessage, {
      params: { id: 'c 1', messageId: 'm/1' },
      signal: controller.signal,
    });
    await api.call(conversations.listConversations, { query: { status: 'OPEN', limit: 20, cursor: undefined } });
    await api.call(contacts.updateContact, { params: { id: 'k1' }, body: { name: 'Ada', email: '', notes: '' } });

    expect(answer).toEqual({ message: { id: 'm/1' } });
    expect(summary(requests)).toEqual([
      'POST /api/v1/conversations/c%201/messages/m%2F1/retry Bearer old',
      'GET /api/v1/conversations?status=OPEN&limit=20 Bearer old',
      'PUT /api/v1/contacts/k1 Bearer old',
    ]);
    expect(requests[0]?.signal).toBe(controller.signal);
    expect(requests[2]?.body).toEqual({ name: 'Ada', email: '', notes: '' });
  });

  it('types a call from its contract (checked by tsc: each @ts-expect-error must be an error)', async () => {
    const { api } = setup(() => ok({ contact: { id: 'k1' } }));
    const calls = [
      // @ts-expect-error a path parameter is missing
      () => api.call(conversations.retryMessage, { params: { id: 'c1' } }),
      // @ts-expect-error the path has no such parameter
      () => api.call(auth.me, { params: { id: 'c1' } }),
      // @ts-expect-error the body is required
      () => api.call(conversations.sendMessage, { params: { id: 'c1' } }),
      // @ts-expect-error the body's fields are the contract's
      () => api.call(conversations.sendMessage, { params: { id: 'c1' }, body: { text: 'hi' } }),
      // @ts-expect-error the query's fields are the contract's
      () => api.call(conversations.listConversations, { query: { status: 'ARCHIVED' } }),
    ];
    expect(calls).toHaveLength(5);
    const contact = await api.call(contacts.updateContact, { params: { id: 'k1' }, body: { name: 'Ada' } });
    // @ts-expect-error the answer is the contract's response
    expect(contact.contacts).toBeUndefined();
    expect(contact.contact.id).toBe('k1');
  });

  it("gives the answer's top-level message too, when asked", async () => {
    const { api } = setup(() => ok({ emailSent: true }, 'Check your inbox'));
    await expect(api.callWithMessage(auth.resendVerification, { body: { email: 'ada@example.com' } })).resolves.toEqual({
      data: { emailSent: true },
      message: 'Check your inbox',
    });
  });

  it('refreshes and retries a signed-in route called by its endpoint on a 401', async () => {
    const { api, requests } = setup(rotatingServer);
    await expect(api.call(auth.me)).resolves.toEqual({ path: '/api/v1/me' });
    expect(summary(requests)).toEqual([
      'GET /api/v1/me Bearer old',
      'POST /api/v1/auth/refresh Bearer old',
      'GET /api/v1/me Bearer new',
    ]);
  });

  it('sends no Authorization header when no access token is stored', async () => {
    const { api, requests } = setup(() => ok({}), createSessionStore(window.localStorage));
    await api.post('/auth/login', { email: 'a@b.c', password: 'pw' });
    expect(requests[0]?.headers['Content-Type']).toBe('application/json');
    expect(requests[0]?.headers).not.toHaveProperty('Authorization');
  });

  it('forwards the abort signal', async () => {
    const { api, requests } = setup(() => ok({}));
    const controller = new AbortController();
    await api.get('/contacts', { signal: controller.signal });
    expect(requests[0]?.signal).toBe(controller.signal);
  });

  it('unwraps the envelope: get/post return data, request also returns the top-level message', async () => {
    const { api } = setup(() => ok({ emailSent: true }, 'Check your email'));
    await expect(api.get('/anything')).resolves.toEqual({ emailSent: true });
    await expect(api.post('/anything', {})).resolves.toEqual({ emailSent: true });
    await expect(api.request('/anything', { method: 'POST', body: {} })).resolves.toEqual({
      data: { emailSent: true },
      message: 'Check your email',
    });
  });

  it('turns an error envelope into an ApiError with status, code, message and details', async () => {
    const { api, onSignedOut } = setup(() =>
      fail(400, 'VALIDATION_FAILED', 'Invalid input', { fields: { email: 'Enter a valid email' } }),
    );
    const error = await api.post('/contacts', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Invalid input',
      details: { fields: { email: 'Enter a valid email' } },
    });
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('turns a response without an envelope into an INVALID_RESPONSE ApiError', async () => {
    const { api } = setup(() => reply(502, '<html>Bad gateway</html>'));
    const error = await api.get('/contacts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'INVALID_RESPONSE', message: 'Request failed (502)' });
  });

  it('treats a 2xx answer that is not a success envelope as a failure', async () => {
    const { api } = setup(() => reply(200, { success: false, error: { code: 'INTERNAL_ERROR', message: 'Nope' } }));
    await expect(api.get('/contacts')).rejects.toMatchObject({ status: 200, code: 'INTERNAL_ERROR', message: 'Nope' });
  });

  it('does not refresh on statuses other than 401', async () => {
    const { api, requests, onSignedOut, session } = setup(() => fail(403, 'FORBIDDEN', 'Access denied'));
    await expect(api.get('/admin/overview')).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(requests).toHaveLength(1);
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(session.get()?.accessToken).toBe('old');
  });

  it('passes network failures and aborts through unchanged, without signing out', async () => {
    const network = new TypeError('Failed to fetch');
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    let next: unknown = network;
    const { api, onSignedOut, session } = setup(() => {
      throw next;
    });
    await expect(api.get('/contacts')).rejects.toBe(network);
    next = abort;
    await expect(api.get('/contacts')).rejects.toBe(abort);
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(session.get()).not.toBeNull();
  });
});

describe('createApiClient: 401, refresh and retry (docs/product.md §7, §8)', () => {
  it('refreshes once with the stored refresh token, stores the new tokens and retries once with the new token', async () => {
    const { api, requests, session, onSignedOut } = setup(rotatingServer);
    await expect(api.get('/contacts')).resolves.toEqual({ path: '/api/v1/contacts' });

    expect(summary(requests)).toEqual([
      'GET /api/v1/contacts Bearer old',
      'POST /api/v1/auth/refresh Bearer old',
      'GET /api/v1/contacts Bearer new',
    ]);
    expect(requests[1]?.body).toEqual({ refreshToken: 'r1' });
    expect(session.get()).toMatchObject({ accessToken: 'new', refreshToken: 'r2', user, company });
    expect(window.localStorage.getItem('accessToken')).toBe('new');
    expect(window.localStorage.getItem('refreshToken')).toBe('r2');
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('retries with the same method and body', async () => {
    const { api, requests } = setup(rotatingServer);
    await api.post('/contacts', { name: 'Ada' });
    expect(requests[2]).toMatchObject({ method: 'POST', url: '/api/v1/contacts', body: { name: 'Ada' } });
  });

  it('shares ONE refresh between parallel 401s', async () => {
    const refreshAnswer = deferred<Response>();
    const { api, requests, onSignedOut } = setup((request) => {
      if (request.url === auth.refresh.path) return refreshAnswer.promise;
      return rotatingServer(request);
    });
    const results = Promise.all([api.get('/contacts'), api.get('/calls'), api.get('/channels')]);
    // All three 401s have arrived while the refresh is still in flight.
    await settle();
    expect(requests.filter((r) => r.url === auth.refresh.path)).toHaveLength(1);

    refreshAnswer.resolve(ok({ tokens: { accessToken: 'new', refreshToken: 'r2' } }));
    await expect(results).resolves.toEqual([
      { path: '/api/v1/contacts' },
      { path: '/api/v1/calls' },
      { path: '/api/v1/channels' },
    ]);
    expect(requests.filter((r) => r.url === auth.refresh.path)).toHaveLength(1);
    expect(requests.filter((r) => r.headers.Authorization === 'Bearer new').map((r) => r.url)).toEqual(
      expect.arrayContaining(['/api/v1/contacts', '/api/v1/calls', '/api/v1/channels']),
    );
    expect(requests).toHaveLength(7);
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('a 401 arriving after a refresh has already renewed the token retries with it, without a second refresh', async () => {
    const slow = deferred<Response>();
    const { api, requests, onSignedOut } = setup((request) => {
      // /calls was sent with the old token, and its 401 arrives only after /contacts' refresh ended.
      if (request.url === '/api/v1/calls' && request.headers.Authorization === 'Bearer old') return slow.promise;
      return rotatingServer(request);
    });
    const calls = api.get('/calls');
    await settle();
    await expect(api.get('/contacts')).resolves.toEqual({ path: '/api/v1/contacts' });
    slow.resolve(unauthorized());
    await expect(calls).resolves.toEqual({ path: '/api/v1/calls' });
    expect(requests.filter((r) => r.url === auth.refresh.path)).toHaveLength(1);
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('refreshes again for a later, separate 401', async () => {
    let refreshes = 0;
    let valid = 'none';
    const { api, requests } = setup((request) => {
      if (request.url === auth.refresh.path) {
        refreshes += 1;
        valid = `new${refreshes}`;
        return ok({ tokens: { accessToken: valid, refreshToken: `r${refreshes + 1}` } });
      }
      return request.headers.Authorization === `Bearer ${valid}` ? ok({}) : unauthorized();
    });
    await api.get('/contacts');
    valid = 'revoked';
    await api.get('/contacts');
    expect(requests.filter((r) => r.url === auth.refresh.path).map((r) => r.body)).toEqual([
      { refreshToken: 'r1' },
      { refreshToken: 'r2' },
    ]);
  });

  it('without a refresh token: no refresh, the session is cleared, onSignedOut runs once and the 401 is rethrown', async () => {
    const { api, requests, session, onSignedOut } = setup(rotatingServer, signedIn({ accessToken: 'old' }));
    const error = await api.get('/contacts').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'TOKEN_EXPIRED', message: 'Access token expired' });
    expect(summary(requests)).toEqual(['GET /api/v1/contacts Bearer old']);
    expect(session.get()).toBeNull();
    expect(SESSION_KEYS.map((key) => window.localStorage.getItem(key))).toEqual([null, null, null, null]);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('with a failed refresh: the session is cleared, onSignedOut runs once and the original 401 is rethrown', async () => {
    const { api, requests, session, onSignedOut } = setup((request) =>
      request.url === auth.refresh.path ? fail(401, 'INVALID_TOKEN', 'Refresh token invalid') : unauthorized(),
    );
    const error = await api.get('/contacts').catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 401, code: 'TOKEN_EXPIRED', message: 'Access token expired' });
    expect(summary(requests)).toEqual(['GET /api/v1/contacts Bearer old', 'POST /api/v1/auth/refresh Bearer old']);
    expect(session.get()).toBeNull();
    expect(SESSION_KEYS.map((key) => window.localStorage.getItem(key))).toEqual([null, null, null, null]);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('passes the refresh’s refusal on to the sign-out: a removed member is told why', async () => {
    const sentence = 'You no longer have access to Acme. Ask an owner or admin to invite you again.';
    const { api, onSignedOut } = setup((request) =>
      request.url === auth.refresh.path
        ? fail(401, 'ACCESS_REMOVED', sentence)
        : fail(401, 'SESSION_ENDED', 'Your session has ended.'),
    );
    await api.get('/contacts').catch(() => undefined);
    expect(onSignedOut).toHaveBeenCalledWith(expect.objectContaining({ code: 'ACCESS_REMOVED', message: sentence }));
  });

  it('parallel 401s with a failed refresh share ONE refresh attempt and all end signed out with their 401', async () => {
    const refreshAnswer = deferred<Response>();
    const { api, requests, session, onSignedOut } = setup((request) =>
      request.url === auth.refresh.path ? refreshAnswer.promise : unauthorized(),
    );
    const results = Promise.allSettled([api.get('/contacts'), api.get('/calls')]);
    await settle();
    refreshAnswer.resolve(fail(401, 'REFRESH_TOKEN_REUSED', 'Refresh token reused'));

    const settled = await results;
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of settled) expect(r.status === 'rejected' && r.reason).toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    expect(requests.filter((r) => r.url === auth.refresh.path)).toHaveLength(1);
    expect(requests).toHaveLength(3);
    expect(session.get()).toBeNull();
    expect(window.localStorage.getItem('accessToken')).toBeNull();
    expect(onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('a refresh that cannot get through (429, 5xx, network) keeps the session and tries again until it does', async () => {
    const failures: (() => Response)[] = [
      () => fail(429, 'TOO_MANY_REQUESTS', 'Too many requests'),
      () => reply(429, { message: 'Too Many Requests' }), // API Gateway's own throttle: no envelope
      () => fail(503, 'SERVICE_UNAVAILABLE', 'The service is busy right now. Please try again in a moment.'),
      () => {
        throw new TypeError('Failed to fetch');
      },
    ];
    const { api, requests, session, onSignedOut, waits } = setup((request) => {
      if (request.url !== auth.refresh.path) return rotatingServer(request);
      const next = failures.shift();
      return next ? next() : rotatingServer(request);
    });
    await expect(api.get('/contacts')).resolves.toEqual({ path: '/api/v1/contacts' });

    expect(summary(requests)).toEqual([
      'GET /api/v1/contacts Bearer old',
      ...Array.from({ length: 5 }, () => 'POST /api/v1/auth/refresh Bearer old'),
      'GET /api/v1/contacts Bearer new',
    ]);
    // Every try presented the same, kept refresh token.
    expect(requests.filter((r) => r.url === auth.refresh.path).map((r) => r.body)).toEqual(
      Array.from({ length: 5 }, () => ({ refreshToken: 'r1' })),
    );
    expect(waits).toHaveLength(4);
    for (const [i, ms] of waits.entries()) expect(ms).toBeLessThanOrEqual(refreshDelayMs(i + 1, undefined, () => 1));
    expect(session.get()).toMatchObject({ accessToken: 'new', refreshToken: 'r2' });
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('under a 429 storm: the call fails with the 429 after its tries, and the tab stays signed in with its refresh token', async () => {
    const { api, requests, session, onSignedOut, waits } = setup((request) =>
      request.url === auth.refresh.path
        ? fail(429, 'TOO_MANY_REQUESTS', 'Too many attempts. Please try again in 1 minute.', { retryAfterSeconds: 42 })
        : unauthorized(),
    );
    await expect(api.get('/contacts')).rejects.toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });

    expect(requests.filter((r) => r.url === auth.refresh.path)).toHaveLength(REFRESH_ATTEMPTS);
    // The throttle said when to come back: each wait is that long.
    expect(waits).toEqual(Array.from({ length: REFRESH_ATTEMPTS - 1 }, () => 42_000));
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(session.get()).toMatchObject({ accessToken: 'old', refreshToken: 'r1' });
    expect(window.localStorage.getItem('refreshToken')).toBe('r1');

    // The storm over, the next call refreshes with the kept token and goes through.
    const after = setup(rotatingServer, session);
    await expect(after.api.get('/contacts')).resolves.toEqual({ path: '/api/v1/contacts' });
    expect(after.onSignedOut).not.toHaveBeenCalled();
  });

  it('a second 401 after the retry signs out and rethrows the original error, with no second refresh', async () => {
    const { api, requests, session, onSignedOut } = setup((request) =>
      request.url === auth.refresh.path ? ok({ tokens: { accessToken: 'new', refreshToken: 'r2' } }) : unauthorized(),
    );
    await expect(api.get('/contacts')).rejects.toMatchObject({ status: 401, message: 'Access token expired' });

    expect(summary(requests)).toEqual([
      'GET /api/v1/contacts Bearer old',
      'POST /api/v1/auth/refresh Bearer old',
      'GET /api/v1/contacts Bearer new',
    ]);
    expect(session.get()).toBeNull();
    expect(window.localStorage.getItem('accessToken')).toBeNull();
    expect(onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('a non-401 failure of the retry is rethrown without signing out', async () => {
    const { api, session, onSignedOut } = setup((request) => {
      if (request.url === auth.refresh.path) return ok({ tokens: { accessToken: 'new', refreshToken: 'r2' } });
      return request.headers.Authorization === 'Bearer new' ? fail(404, 'NOT_FOUND', 'Contact not found') : unauthorized();
    });
    await expect(api.get('/contacts/x')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(session.get()?.accessToken).toBe('new');
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  // A public route takes no access token: its 401 means wrong credentials, never an expired session.
  it.each([auth.login, auth.register, auth.refresh, auth.logout])(
    'passes a 401 from the public $path through unchanged, without refresh or sign-out',
    async (endpoint) => {
      const { api, requests, session, onSignedOut } = setup(() => fail(401, 'INVALID_CREDENTIALS', 'Invalid email or password'));
      const error = await api
        .call(endpoint as typeof auth.login, { body: { email: 'ada@example.com', password: 'wrong' } })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' });
      expect(requests.map((r) => r.url)).toEqual([endpoint.path]);
      expect(onSignedOut).not.toHaveBeenCalled();
      expect(session.get()?.accessToken).toBe('old');
      expect(window.localStorage.getItem('accessToken')).toBe('old');
    },
  );
});

describe('createApiClient: renewing an access token about to expire', () => {
  /** An unsigned JWT-shaped token expiring at `exp` (ms): the client reads `exp` only. */
  const tokenExpiringAt = (name: string, exp: number) =>
    `e30.${btoa(JSON.stringify({ sub: name, exp: Math.floor(exp / 1000) })).replace(/=+$/, '')}.sig`;
  const server = (expiring: string) => (request: Recorded) => {
    if (request.url === auth.refresh.path) return ok({ tokens: { accessToken: 'new', refreshToken: 'r2' } });
    if (request.headers.Authorization === 'Bearer new') return ok({ path: request.url });
    return request.headers.Authorization === `Bearer ${expiring}` ? ok({ path: request.url }) : unauthorized();
  };

  it('renews it before the call, within 30 s of its expiry: the call is sent once, with the new token', async () => {
    const expiring = tokenExpiringAt('ada', Date.now() + 10_000);
    const { api, requests, onSignedOut } = setup(server(expiring), signedIn({ accessToken: expiring, refreshToken: 'r1' }));
    await expect(api.get('/contacts')).resolves.toEqual({ path: '/api/v1/contacts' });
    expect(summary(requests)).toEqual([`POST /api/v1/auth/refresh Bearer ${expiring}`, 'GET /api/v1/contacts Bearer new']);
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('leaves a token with time to spare as it is', async () => {
    const fresh = tokenExpiringAt('ada', Date.now() + 10 * 60_000);
    const { api, requests } = setup(server(fresh), signedIn({ accessToken: fresh, refreshToken: 'r1' }));
    await api.get('/contacts');
    expect(summary(requests)).toEqual([`GET /api/v1/contacts Bearer ${fresh}`]);
  });

  it('leaves it to the 401 when the tab’s clock is far past the expiry (a wrong clock never refreshes every call)', async () => {
    const long = tokenExpiringAt('ada', Date.now() - 20 * 60_000);
    const { api, requests } = setup(rotatingServer, signedIn({ accessToken: long, refreshToken: 'r1' }));
    await api.get('/contacts');
    expect(summary(requests)).toEqual([
      `GET /api/v1/contacts Bearer ${long}`,
      `POST /api/v1/auth/refresh Bearer ${long}`,
      'GET /api/v1/contacts Bearer new',
    ]);
  });
});

describe('createApiClient: binary routes', () => {
  const bytes = (status = 200) =>
    new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { status, headers: { 'Content-Type': 'image/png' } });

  it('answers the bytes as a Blob with their content type, sent with the bearer token', async () => {
    const { api, requests } = setup(() => bytes());
    const blob = await api.blob(conversations.messageMedia, { params: { id: 'c1', messageId: 'm/1', index: '0' } });

    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ url: '/api/v1/conversations/c1/messages/m%2F1/media/0', method: 'GET' });
    expect(requests[0]?.headers).toEqual({ Accept: '*/*', Authorization: 'Bearer old' });
  });

  it('keeps the bytes out of the browser’s HTTP cache, so nothing of them outlives the session (docs/security.md: Media in the browser)', async () => {
    const { api, requests } = setup(() => bytes());
    await api.blob(conversations.messageMedia, { params: { id: 'c1', messageId: 'm1', index: '0' } });
    await api.blob(calls.voicemailAudio, { params: { id: 'call-1' } });
    expect(requests.map((r) => r.cache)).toEqual(['no-store', 'no-store']);
  });

  it('refreshes after a 401 and retries, as JSON calls do', async () => {
    const { api, requests } = setup((request) => {
      if (request.url === auth.refresh.path) return ok({ tokens: { accessToken: 'new', refreshToken: 'r2' } });
      return request.headers.Authorization === 'Bearer new' ? bytes() : unauthorized();
    });
    const blob = await api.blob(calls.voicemailAudio, { params: { id: 'call-1' } });

    expect(blob.size).toBe(4);
    expect(summary(requests)).toEqual([
      'GET /api/v1/calls/call-1/voicemail Bearer old',
      'POST /api/v1/auth/refresh Bearer old',
      'GET /api/v1/calls/call-1/voicemail Bearer new',
    ]);
  });

  it("throws the error envelope's message and code as an ApiError", async () => {
    const { api } = setup(() => fail(413, 'PAYLOAD_TOO_LARGE', 'This picture is too large to show'));
    const answer = api.blob(conversations.messageMedia, { params: { id: 'c1', messageId: 'm1', index: '3' } });
    await expect(answer).rejects.toBeInstanceOf(ApiError);
    await expect(answer).rejects.toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'This picture is too large to show',
    });
  });
});

describe('errorMessage (docs/product.md §8)', () => {
  it("prefers the server's message", () => {
    const error = new ApiError('Please verify your email before signing in.', 403, 'EMAIL_NOT_VERIFIED');
    expect(errorMessage(error, 'Login failed')).toBe('Please verify your email before signing in.');
    expect(errorMessage(new ApiError('Email already registered', 409, 'CONFLICT'), 'Registration failed')).toBe(
      'Email already registered',
    );
  });

  it('says the request was cancelled for an AbortError', () => {
    expect(errorMessage(new DOMException('The user aborted a request.', 'AbortError'), 'Login failed')).toBe(
      'Request was cancelled. Please try again.',
    );
  });

  it("says a network failure in people's words, whatever the browser calls it", () => {
    expect(errorMessage(new TypeError('Failed to fetch'), 'Login failed')).toBe(
      'Cannot reach Switchboard. Check your connection.',
    );
    expect(errorMessage(new TypeError('NetworkError when attempting to fetch resource.'), 'Registration failed')).toBe(
      'Cannot reach Switchboard. Check your connection.',
    );
    expect(errorMessage(new TypeError('Load failed'), 'Login failed')).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('falls back when there is no server message', () => {
    // No envelope came back: the client-made 'Request failed (502)' is not a server message.
    expect(errorMessage(new ApiError('Request failed (502)', 502, 'INVALID_RESPONSE'), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new ApiError('', 500, 'INTERNAL_ERROR'), 'Registration failed')).toBe('Registration failed');
    expect(errorMessage(new TypeError(''), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new DOMException('Timed out', 'TimeoutError'), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new Error('boom'), 'Registration failed')).toBe('Registration failed');
    expect(errorMessage(undefined, 'Login failed')).toBe('Login failed');
    expect(errorMessage('a string', 'Login failed')).toBe('Login failed');
  });

  it('works on what the client actually throws', async () => {
    const { api } = setup(() => fail(401, 'INVALID_CREDENTIALS', 'Invalid email or password'));
    const serverError = await api.post('/auth/login', {}).catch((e: unknown) => e);
    expect(errorMessage(serverError, 'Login failed')).toBe('Invalid email or password');

    const offline = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const networkError = await offline.api.post('/auth/login', {}).catch((e: unknown) => e);
    expect(errorMessage(networkError, 'Login failed')).toBe(NETWORK_ERROR_MESSAGE);

    const broken = setup(() => reply(500, 'not json'));
    const invalid = await broken.api.post('/auth/register', {}).catch((e: unknown) => e);
    expect(errorMessage(invalid, 'Registration failed')).toBe('Registration failed');
  });
});

describe('createApiClient: tabs sharing one session', () => {
  /** navigator.locks for tabs of one browser: callbacks run one after another. */
  function sharedLock(): Locks {
    let tail: Promise<unknown> = Promise.resolve();
    return {
      request(_name, callback) {
        const run = tail.then(callback);
        tail = run.catch(() => {});
        return run;
      },
    };
  }

  it('one tab refreshes under the lock, the other takes its tokens: one refresh, both stay signed in', async () => {
    signedIn();
    let refreshes = 0;
    const server = fakeServer((request) => {
      if (request.url === auth.refresh.path) {
        refreshes += 1;
        // The spent token presented again would count as reuse.
        if ((request.body as { refreshToken: string }).refreshToken !== 'r1') return fail(401, 'REFRESH_TOKEN_REUSED', 'Reused');
        return ok({ tokens: { accessToken: 'new', refreshToken: 'r2' } });
      }
      return request.headers.Authorization === 'Bearer new' ? ok({ tab: 'ok' }) : unauthorized();
    });
    const locks = sharedLock();
    const tabs = [0, 1].map(() => {
      const session = createSessionStore(window.localStorage);
      const onSignedOut = vi.fn();
      return { session, onSignedOut, api: createApiClient({ session, onSignedOut, fetch: server.fetch, locks }) };
    });

    await expect(Promise.all(tabs.map((t) => t.api.get('/me')))).resolves.toEqual([{ tab: 'ok' }, { tab: 'ok' }]);
    expect(refreshes).toBe(1);
    for (const tab of tabs) {
      expect(tab.onSignedOut).not.toHaveBeenCalled();
      expect(tab.session.get()).toMatchObject({ accessToken: 'new', refreshToken: 'r2' });
    }
  });
});

describe('refreshDelayMs', () => {
  it('backs off exponentially from 1 s to at most 30 s, with jitter in the upper half', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => refreshDelayMs(attempt, undefined, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(refreshDelayMs(3, undefined, () => 0)).toBe(2000);
  });

  it('waits as long as the throttle says, up to a minute', () => {
    const throttled = (seconds: number) => new ApiError('Too many', 429, 'TOO_MANY_REQUESTS', { retryAfterSeconds: seconds });
    expect(refreshDelayMs(1, throttled(42))).toBe(42_000);
    expect(refreshDelayMs(1, throttled(900))).toBe(60_000);
  });
});
