import type { APIGatewayAuthorizerResult, APIGatewayProxyEventV2, APIGatewaySimpleAuthorizerResult } from 'aws-lambda';
import type { SocketEvent } from '../../functions/lib/define-socket-handler';
import type { AuthorizerEntry, RouteEntry } from '../../functions/routes';
import type { Logger } from '../log';
import { connectAuthorizerEvent, httpAuthorizerEvent } from './events';
import { headerValue } from './http-io';

/**
 * API Gateway's Lambda authorizer (the route table's originAuthorizer), run before any HTTP route and
 * on `$connect`. Each check answers the status API Gateway refuses with, or undefined to go on to the
 * route; without an authorizer everything goes on.
 */
export function createAuthorizer(
  authorizer: AuthorizerEntry | undefined,
  run: (route: RouteEntry, event: unknown) => Promise<unknown>,
  log: Logger,
) {
  /** The HTTP API's answers of the authorizer per identity value: with simple responses, for every route. */
  const authorizations = new Map<string, { allowed: boolean; until: number }>();

  const failed = (entry: AuthorizerEntry, error: unknown) => {
    log.error(`authorizer ${entry.handler} failed: ${(error as Error).stack ?? error}`);
    return 500;
  };

  return {
    /**
     * The HTTP API's: a request without its identity header is answered 401 without invoking anything;
     * otherwise the function's answer, kept per header value for its TTL, admits the request or refuses
     * it 403, and a failing authorizer means 500.
     */
    http: async (event: APIGatewayProxyEventV2): Promise<number | undefined> => {
      if (!authorizer) return undefined;
      const identity = headerValue(event.headers, authorizer.identityHeader);
      if (!identity) return 401;
      const kept = authorizations.get(identity);
      if (kept && kept.until > Date.now()) return kept.allowed ? undefined : 403;
      try {
        const answer = (await run(authorizer, httpAuthorizerEvent(event, identity))) as APIGatewaySimpleAuthorizerResult;
        const { isAuthorized } = answer;
        if (typeof isAuthorized !== 'boolean') throw new Error('answered without isAuthorized');
        authorizations.set(identity, { allowed: isAuthorized, until: Date.now() + authorizer.resultTtlSeconds * 1000 });
        return isAuthorized ? undefined : 403;
      } catch (error) {
        return failed(authorizer, error);
      }
    },

    /**
     * The WebSocket API's, on `$connect`: 401 without its identity header, invoking nothing; otherwise
     * the REST-style REQUEST event, answered with an IAM policy that must allow the connection (403 if
     * not). API Gateway keeps no answers for WebSocket authorizers.
     */
    connect: async (event: SocketEvent, sourceIp: string): Promise<number | undefined> => {
      if (!authorizer) return undefined;
      if (!headerValue(event.headers as Record<string, string> | undefined, authorizer.identityHeader)) return 401;
      try {
        const policy = (await run(authorizer, connectAuthorizerEvent(event, sourceIp))) as APIGatewayAuthorizerResult;
        const effects = (policy?.policyDocument?.Statement ?? []).map((statement) => statement.Effect);
        return effects.includes('Allow') && !effects.includes('Deny') ? undefined : 403;
      } catch (error) {
        return failed(authorizer, error);
      }
    },
  };
}

export type Authorizer = ReturnType<typeof createAuthorizer>;
