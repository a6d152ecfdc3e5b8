import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, parsePath, Route, Routes } from 'react-router';
import { onTestFinished, vi } from 'vitest';
import { COUNTRIES, DEFAULT_OUTBOUND_CALLS_PER_MINUTE, DEFAULT_TEXT_SEGMENTS_PER_HOUR } from '../../shared/constants';
import type { Company, Role, User } from '../../shared/contract/auth';
import {
  type Endpoint,
  fillPath,
  type HttpContract,
  isPathOf,
  type PathParamName,
  type PathParams,
} from '../../shared/contract/route';
import { queryString } from './lib/api-client';
import { companySettingsQuery } from './lib/company-settings';
import { session } from './lib/services';

/** The signed-in person of the web tests. */
export const sampleUser: User = {
  id: 'u1',
  companyId: 'c1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  emailVerified: true,
  role: 'OWNER',
  avatarUrl: null,
  lastActiveAt: null,
  isPlatformAdmin: false,
};
export const sampleCompany: Company = { id: 'c1', name: 'Analytical Engines' };

/** Signs the sample user in with a role; returns the sign-out, so `beforeEach(() => signInAs('OWNER'))` cleans up. */
export function signInAs(role: Role) {
  session.signIn({ user: { ...sampleUser, role }, company: sampleCompany, tokens: { accessToken: 'a', refreshToken: 'r' } });
  return () => session.clear();
}

/** Every route's endpoint by name (test/support/endpoints.ts): what the stub servers match requests by. */
export { endpoints } from '../../test/support/endpoints';

/** What locates a call of a route besides its path: its `{param}`s (none for a path without any) and its query. */
type UrlArgs<P extends string> = [PathParamName<P>] extends [never]
  ? [params?: Record<string, never>, query?: Record<string, unknown>]
  : [params: PathParams<P>, query?: Record<string, unknown>];

/**
 * The URL the app's client asks a route at: the endpoint's path with its `{param}`s filled (fillPath)
 * and the query, in the order given, as the client encodes it.
 */
export function urlOf<P extends string>(endpoint: { path: P }, ...[params, query]: UrlArgs<P>): string {
  return `${fillPath<string>(endpoint.path, params ?? {})}${queryString(query)}`;
}

/** A call as tests list them: the endpoint's method and its URL (urlOf), `POST /api/v1/auth/refresh`. */
export const callLine = <P extends string>(endpoint: { method: string; path: P }, ...args: UrlArgs<P>) =>
  `${endpoint.method} ${urlOf(endpoint, ...args)}`;

/**
 * Whether a request the stub server saw is a call of the route: the endpoint's method, and its path
 * whatever the query, with the `params` given (any value of those not given).
 */
export const isCall = <C extends HttpContract>(
  request: Pick<Recorded, 'url' | 'method'>,
  endpoint: Endpoint<C>,
  params: Partial<PathParams<C['path']>> = {},
) => request.method === endpoint.method && isPathOf(endpoint.path, request.url, params);

/** One request the app's API client sent, as the stub server saw it. */
export interface Recorded {
  url: string;
  method: string;
  body: unknown;
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const ok = (data: unknown, status = 200) => json(status, { success: true, data });

export const fail = (status: number, message: string, code = 'VALIDATION_FAILED') =>
  json(status, { success: false, error: { code, message } });

/** A binary route's answer: bytes with their content type, as the media and voicemail routes send them. */
export const bytes = (contentType: string, content: number[] = [0x89, 0x50, 0x4e, 0x47]) =>
  new Response(new Uint8Array(content), { status: 200, headers: { 'Content-Type': contentType } });

/**
 * Object URLs for the test (jsdom has none): each Blob made into one is kept, in order, with the
 * addresses revoked; put back when the test ends.
 */
export function stubObjectUrls() {
  const made: Blob[] = [];
  const revoked: string[] = [];
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    made.push(blob as Blob);
    return `blob:test/${made.length}`;
  };
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
  };
  onTestFinished(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });
  return { made, revoked };
}

/**
 * Stubs the global fetch the API client uses; records every request. The handler also gets the
 * request's init, for an answer that depends on a header (the bearer token).
 */
export function stubServer(handler: (request: Recorded, init?: RequestInit) => Response | Promise<Response>) {
  const requests: Recorded[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = {
        url: String(input),
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      requests.push(request);
      return handler(request, init);
    }),
  );
  return requests;
}

/** A response the test releases when it wants, to look at the pending state first. */
export function deferred() {
  let release: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

/** Calling settings as a new company has them: every dialer country, 30 calls a minute, 2,000 text segments an hour. */
export const TEST_CALLING = {
  allowedCountries: COUNTRIES.map((c) => c.code),
  outboundCallsPerMinute: DEFAULT_OUTBOUND_CALLS_PER_MINUTE,
  textSegmentsPerHour: DEFAULT_TEXT_SEGMENTS_PER_HOUR,
  voicemailGreeting: null,
  recordingDisclosure: null,
  recordPrivateLines: false,
};

/**
 * Renders inside a fresh query cache (no retries) and a router. With `at`, the router starts at that
 * address (with `at.state` as the history state a link gave it) and the element is the page of
 * `at.route`, so it reads its own query string.
 */
export function renderWithProviders(ui: ReactElement, at?: { path: string; route: string; state?: unknown }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // The company's settings are read once per session; the tests' company dials from the US.
  queryClient.setQueryData(companySettingsQuery().queryKey, { default_country_code: { code: 'US' }, calling: TEST_CALLING });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={at ? [{ ...parsePath(at.path), state: at.state }] : undefined}>
        {at ? (
          <Routes>
            <Route path={at.route} element={ui} />
          </Routes>
        ) : (
          ui
        )}
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
