import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import type { SocketContract } from '../../shared/contract/route';
import { redeemTicket, type TicketHolder } from '../realtime/tickets';
import { AppError } from './app-error';
import { logError } from './log';
import { verifyOrigin } from './origin';
import { serving } from './serving';
import { epochSeconds } from './table';

/** API Gateway passes the query string and headers to `$connect` only. */
export type SocketEvent = APIGatewayProxyWebsocketEventV2 & {
  queryStringParameters?: Record<string, string | undefined>;
  headers?: Record<string, string | undefined>;
};

export interface SocketRequest<C extends SocketContract> {
  connectionId: string;
  holder: C['auth'] extends 'ticket' ? TicketHolder : undefined;
  /** The message as sent (base64 decoded), for `$default`. */
  body: string | undefined;
  event: SocketEvent;
}

/**
 * A `ticket` route's admission: the single-use ticket from the query string, and the company (and user)
 * the URL names must be the ticket's. `/ws/company/{id}` reaches the stage with `companyId` set from
 * the path (CloudFront Function in AWS, the gateway locally). Refusals are 401 (no valid ticket) or 403.
 */
async function admit(event: SocketEvent): Promise<TicketHolder | { statusCode: number; body: string }> {
  const query = event.queryStringParameters ?? {};
  if (!query.ticket) return { statusCode: 401, body: 'A realtime ticket is required' };
  const holder = await redeemTicket(query.ticket);
  if (!holder || holder.sessionExpiresAt <= epochSeconds()) return { statusCode: 401, body: 'Invalid or expired ticket' };
  if ((query.companyId && query.companyId !== holder.companyId) || (query.userId && query.userId !== holder.userId)) {
    return { statusCode: 403, body: 'This ticket is for another company or user' };
  }
  return holder;
}

/** WebSocket counterpart of defineHandler: admission for `$connect`, and errors as status codes. */
export function defineSocketHandler<C extends SocketContract>(
  contract: C,
  fn: (req: SocketRequest<C>) => Promise<APIGatewayProxyResultV2 | undefined>,
) {
  return serving(contract, async (event: SocketEvent): Promise<APIGatewayProxyResultV2> => {
    try {
      let holder: TicketHolder | undefined;
      if (contract.auth === 'ticket') {
        // Before the ticket is spent: a socket opened on the public execute-api URL, bypassing
        // CloudFront, is refused as every HTTP route is (docs/security.md: Direct calls to the
        // API endpoints).
        await verifyOrigin(event);
        const admitted = await admit(event);
        if ('statusCode' in admitted) return admitted;
        holder = admitted;
      }
      const body =
        event.body === undefined || event.body === null
          ? undefined
          : event.isBase64Encoded
            ? Buffer.from(event.body, 'base64').toString('utf8')
            : event.body;
      const result = await fn({
        connectionId: event.requestContext.connectionId,
        holder: holder as SocketRequest<C>['holder'],
        body,
        event,
      });
      return result ?? { statusCode: 200 };
    } catch (error) {
      if (error instanceof AppError) return { statusCode: error.status, body: error.message };
      logError({ route: contract.routeKey, connectionId: event.requestContext.connectionId }, error);
      return { statusCode: 500, body: 'Internal error' };
    }
  });
}
