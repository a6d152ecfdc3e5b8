import type {
  APIGatewayAuthorizerResult,
  APIGatewayRequestAuthorizerEvent,
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerResult,
} from 'aws-lambda';
import { ORIGIN_SECRET_HEADER } from '../../lib/config';
import { logWarning } from '../../lib/log';
import { isOriginSecret } from '../../lib/origin';

/**
 * API Gateway's Lambda authorizer of both APIs: every HTTP route, and the WebSocket API's `$connect`. Its
 * identity source is CloudFront's origin-secret header, so a request without the header is refused 401 by API
 * Gateway itself, and one with a wrong value 403 here, before any route function runs (docs/security.md:
 * Direct calls to the API endpoints). The HTTP API asks with payload 2.0 and takes a simple answer; a
 * WebSocket authorizer asks with the REST-style REQUEST event and needs an IAM policy.
 *
 * Its bundle is this file and lib/ origin, config, log and app-error: no zod, no AWS SDK, no table client
 * (origin-authorizer.test.ts).
 */
export async function handler(event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerResult>;
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult>;
export async function handler(
  event: APIGatewayRequestAuthorizerEventV2 | APIGatewayRequestAuthorizerEvent,
): Promise<APIGatewaySimpleAuthorizerResult | APIGatewayAuthorizerResult> {
  const allowed = await isOriginSecret(header(event.headers, ORIGIN_SECRET_HEADER));
  if ('version' in event && event.version === '2.0') {
    if (!allowed) refused(event.routeKey, event.requestContext.http.sourceIp);
    return { isAuthorized: allowed };
  }
  const socket = event as APIGatewayRequestAuthorizerEvent;
  if (!allowed) refused(socket.requestContext.routeKey ?? '$connect', socket.requestContext.identity?.sourceIp);
  return {
    principalId: 'cloudfront',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: allowed ? 'Allow' : 'Deny', Resource: socket.methodArn }],
    },
  };
}

/**
 * Header names are case-insensitive. HTTP API events carry them lowercased; a WebSocket authorizer's
 * event keeps the sender's spelling (API Gateway's example shows `HeaderAuth1`).
 */
function header(headers: Record<string, string | undefined> | null | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** One line per refusal (never the value sent): a wrong secret after a botched rotation shows here first. */
function refused(route: string | undefined, sourceIp: string | undefined): void {
  logWarning({ message: 'Refused a request without the CloudFront origin secret', route, sourceIp });
}
