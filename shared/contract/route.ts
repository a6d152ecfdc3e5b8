import type * as z from 'zod/mini';
import type { Role } from './auth';

/**
 * Who may call a route. `public`: anyone; `user`: a valid access token; `platformAdmin`: a user the
 * operator named; `twilio`: a request signed by Twilio (X-Twilio-Signature).
 */
export type AuthKind = 'public' | 'user' | 'platformAdmin' | 'twilio';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP route's contract, shared by the handlers, the web client and the route table. */
export interface HttpContract {
  kind: 'http';
  method: HttpMethod;
  /** API Gateway path syntax: `/api/v1/contacts/{id}`. */
  path: string;
  auth: AuthKind;
  /**
   * Roles allowed to call a `user` route; absent means every signed-in user. Checked against the
   * stored user on each call, so a role change or a removal takes effect at once.
   */
  roles?: readonly Role[];
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  /** Documents the `data` of a success envelope; handlers are typed against it. */
  response?: z.ZodMiniType;
  /**
   * The route answers bytes with their content type (a picture, a recording), not an envelope; its
   * errors are still envelopes. The web app reads it with its bearer token and shows a blob.
   */
  binary?: true;
}

/**
 * One WebSocket route (`$connect`, `$disconnect`, `$default`). `ticket`: `$connect` redeems a
 * single-use realtime ticket; later messages belong to the connection it opened.
 */
export interface SocketContract {
  kind: 'socket';
  routeKey: '$connect' | '$disconnect' | '$default';
  auth: 'public' | 'ticket';
}

/**
 * Where every Twilio webhook's path begins. A webhook base URL (what a provider records and Twilio's
 * URLs start with) is the address Twilio reaches the platform at followed by it.
 */
export const TWILIO_WEBHOOKS = '/webhooks/twilio';

/** A Twilio webhook's path: the provider's webhook id, then what the webhook is for. */
export type TwilioWebhookPath = `${typeof TWILIO_WEBHOOKS}/{webhookId}/${string}`;

/** Who manages the company's settings and team; AGENTs read them. */
export const MANAGERS = ['OWNER', 'ADMIN'] as const satisfies readonly Role[];

/**
 * A WebSocket route API Gateway takes itself (a MOCK integration): no function runs. With an
 * `answerTemplate` it answers from that mapping template (only `$context.*` variables may appear in it;
 * the local gateway fills those in too); without one it is one-way and sends nothing back.
 */
export interface AnsweredSocketContract {
  kind: 'socket-answered';
  routeKey: string;
  answerTemplate?: string;
}

export type Contract = HttpContract | SocketContract;

export function httpContract<const C extends Omit<HttpContract, 'kind'>>(c: C): C & { kind: 'http' } {
  return { kind: 'http', ...c };
}

/** The names of a path's `{param}`s: `'id' | 'messageId'` for `/x/{id}/messages/{messageId}`. */
export type PathParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamName<Rest>
  : never;

/** A path's parameters by name (`{}` for a path without any), as handlers read them and the web fills them. */
export type PathParams<P extends string> = { [Name in PathParamName<P>]: string };

/** What a route answers in its success envelope's `data`. */
export type Answer<C extends HttpContract> = C['response'] extends z.ZodMiniType ? z.output<C['response']> : unknown;

/**
 * A contract without its schemas: what a caller needs to reach the route (shared/contract/endpoints/
 * has one per HTTP contract). The schemas stay out of the web app's bundle; their types come along
 * through `contract`, which is never set.
 */
export interface Endpoint<C extends HttpContract> {
  readonly method: C['method'];
  readonly path: C['path'];
  readonly auth: C['auth'];
  /** The contract's roles, when it names any: what the web app asks before offering an action. */
  readonly roles?: readonly Role[];
  /** Type only: carries the contract's body, query and response types to the caller. */
  readonly contract?: C;
}

type Input<S> = S extends z.ZodMiniType ? z.input<S> : never;

/** An option the contract has: required unless `{}` would do; absent from the options when it has none. */
type Part<Key extends string, T> = [T] extends [never]
  ? { [K in Key]?: never }
  : Record<string, never> extends T
    ? { [K in Key]?: T }
    : { [K in Key]: T };

type Params<P extends string> = [PathParamName<P>] extends [never] ? never : PathParams<P>;

/**
 * What a call of the route takes, by its contract: the path's `{param}`s by name, the body and the
 * query as the contract's schemas accept them (z.input). The web client and the tests' client add
 * their own options to it.
 */
export type CallInput<C extends HttpContract> = Part<'params', Params<C['path']>> &
  Part<'body', Input<C['body']>> &
  Part<'query', Input<C['query']>>;

/** A call's options argument: optional when every option is. */
export type OptionsArg<Options> = Record<string, never> extends Options ? [options?: Options] : [options: Options];

/** The contract an endpoint carries (type only). */
export type ContractOf<E extends Endpoint<HttpContract>> = NonNullable<E['contract']>;
/** What a route answers, by its endpoint: `AnswerOf<typeof auth.login>`. */
export type AnswerOf<E extends Endpoint<HttpContract>> = Answer<ContractOf<E>>;
/** The body a route takes, as its schema accepts it (z.input). */
export type BodyOf<E extends Endpoint<HttpContract>> = Input<ContractOf<E>['body']>;

/** Whether someone of this role may call the route (the server checks it again on every call). */
export const allows = (endpoint: { auth: AuthKind; roles?: readonly Role[] }, role: Role | undefined): boolean =>
  role !== undefined && endpoint.auth === 'user' && (!endpoint.roles || endpoint.roles.includes(role));

/** The path with its `{param}`s filled, each URL-encoded: `/x/{id}` with `{ id: 'a/b' }` is `/x/a%2Fb`. */
export function fillPath<P extends string>(path: P, params: PathParams<P>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (params as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

/** What matchPath finds in a path: its `{param}`s by name (any names for a path known only as a string). */
export type MatchedParams<P extends string> = string extends P ? Record<string, string> : PathParams<P>;

/**
 * The path's `{param}`s in a concrete, still URL-encoded path (no query) that is the path's, each decoded:
 * `{ id: 'a b' }` for `/x/{id}` and `/x/a%20b`; undefined for any other path. A `{param}` is one
 * non-empty segment; one that is not valid URL encoding (`%`, a cut UTF-8 sequence) matches nothing, so
 * such a path gets the not-found handler's 4xx, never a URIError. What the route table dispatches by
 * (the local gateway, the not-found handler) and tests match requests by (isPathOf).
 */
export function matchPath<P extends string>(path: P, concrete: string): MatchedParams<P> | undefined {
  const expected = path.split('/');
  const actual = concrete.split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < expected.length; i++) {
    const segment = expected[i] as string;
    const value = actual[i] as string;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      const decoded = value === '' ? undefined : decodeSegment(value);
      if (decoded === undefined) return undefined;
      params[segment.slice(1, -1)] = decoded;
    } else if (segment !== value) {
      return undefined;
    }
  }
  return params as MatchedParams<P>;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Whether every segment of a path is valid URL encoding. */
export function isWellEncodedPath(path: string): boolean {
  return path.split('/').every((segment) => decodeSegment(segment) !== undefined);
}

/**
 * Whether a URL (absolute, or a path with or without its query) is the endpoint path's (matchPath),
 * each `{param}` given here having the value given. What tests match requests by.
 */
export function isPathOf<P extends string>(path: P, url: string, params: Partial<PathParams<P>> = {}): boolean {
  const found: Record<string, string> | undefined = matchPath(path, new URL(url, 'http://localhost').pathname);
  return (
    found !== undefined &&
    Object.entries(params as Record<string, string | undefined>).every(
      ([name, value]) => value === undefined || found[name] === value,
    )
  );
}
