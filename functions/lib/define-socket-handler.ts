import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import type { SocketContract } from '../../shared/contract/route';
import { type Principal, verifyAccessToken } from '../auth/access-tokens';
import { AppError } from './app-error';
import { logError } from './log';

/** API Gateway passes the query string and headers to `$connect` only. */
export type SocketEvent = APIGatewayProxyWebsocketEventV2 & {
  queryStringParameters?: Record<string, string | undefined>;
  headers?: Record<string, string | undefined>;
};

export interface SocketRequest<C extends SocketContract> {
  connectionId: string;
  principal: C['auth'] extends 'user' ? Principal : undefined;
  body: unknown;
  event: SocketEvent;
}

/**
 * WebSocket counterpart of defineHandler. A `$connect` route with `user` auth takes the access token
 * from the `token` query parameter (browsers cannot set headers on a WebSocket) and refuses with 401.
 */
export function defineSocketHandler<C extends SocketContract>(
  contract: C,
  fn: (req: SocketRequest<C>) => Promise<APIGatewayProxyResultV2 | undefined>,
) {
  return async (event: SocketEvent): Promise<APIGatewayProxyResultV2> => {
    try {
      let principal: Principal | undefined;
      if (contract.auth === 'user') {
        const token = event.queryStringParameters?.token;
        if (!token) return { statusCode: 401, body: 'Authentication required' };
        principal = await verifyAccessToken(token);
      }
      let body: unknown;
      if (event.body) {
        try {
          body = JSON.parse(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
        } catch {
          return { statusCode: 400, body: 'Messages must be JSON: {"type": ..., "data": ...}' };
        }
      }
      const result = await fn({
        connectionId: event.requestContext.connectionId,
        principal: principal as SocketRequest<C>['principal'],
        body,
        event,
      });
      return result ?? { statusCode: 200 };
    } catch (error) {
      if (error instanceof AppError) return { statusCode: error.status, body: error.message };
      logError({ route: contract.routeKey, connectionId: event.requestContext.connectionId }, error);
      return { statusCode: 500, body: 'Internal error' };
    }
  };
}
