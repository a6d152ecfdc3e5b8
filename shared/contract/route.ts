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

/** Who manages the company's settings and team; AGENTs read them. */
export const MANAGERS = ['OWNER', 'ADMIN'] as const satisfies readonly Role[];

export type Contract = HttpContract | SocketContract;

export function httpContract<const C extends Omit<HttpContract, 'kind'>>(c: C): C & { kind: 'http' } {
  return { kind: 'http', ...c };
}
