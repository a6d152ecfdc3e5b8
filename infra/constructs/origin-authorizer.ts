import { Duration } from 'aws-cdk-lib';
import {
  HttpLambdaAuthorizer,
  HttpLambdaResponseType,
  WebSocketLambdaAuthorizer,
} from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { ORIGIN_SECRET_HEADER } from '../../functions/lib/config';

/**
 * How long the HTTP API keeps the authorizer's answer for one header value. Every request through
 * CloudFront carries the same value, so the authorizer runs about once per TTL, not per request. A few
 * minutes, not the hour allowed: a cached "yes" outlives the value's removal by this long, and a value
 * stays accepted (as the previous one) until the rotation after next anyway (README: rotating the
 * origin secret).
 */
export const ORIGIN_AUTHORIZER_CACHE_TTL = Duration.minutes(5);

/**
 * The identity sources: CloudFront's origin-secret header (web-hosting.ts), written as CloudFront sends
 * it; header names match case-insensitively. A request without it is answered 401 by API Gateway
 * without invoking anything.
 */
export const HTTP_ORIGIN_IDENTITY_SOURCE = `$request.header.${ORIGIN_SECRET_HEADER}`;
export const WEBSOCKET_ORIGIN_IDENTITY_SOURCE = `route.request.header.${ORIGIN_SECRET_HEADER}`;

/**
 * The origin authorizer (functions/handlers/system/origin-authorizer.ts) as each API attaches it: on
 * the HTTP API with simple responses (payload 2.0) and caching; on the WebSocket API's `$connect`, where
 * API Gateway neither caches (AuthorizerResultTtlInSeconds is for HTTP APIs only) nor allows one
 * anywhere else.
 */
export function originAuthorizers(fn: lambda.IFunction) {
  return {
    http: new HttpLambdaAuthorizer('OriginAuthorizer', fn, {
      identitySource: [HTTP_ORIGIN_IDENTITY_SOURCE],
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      resultsCacheTtl: ORIGIN_AUTHORIZER_CACHE_TTL,
    }),
    webSocket: new WebSocketLambdaAuthorizer('OriginAuthorizer', fn, {
      identitySource: [WEBSOCKET_ORIGIN_IDENTITY_SOURCE],
    }),
  };
}
