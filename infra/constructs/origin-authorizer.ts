import { Duration } from 'aws-cdk-lib';
import {
  HttpLambdaAuthorizer,
  HttpLambdaResponseType,
  WebSocketLambdaAuthorizer,
} from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { AuthorizerEntry } from '../../functions/routes';

/**
 * A Lambda authorizer of the route table (functions/routes.ts: originAuthorizer) as each API attaches
 * it, its identity source the entry's header, written as CloudFront sends it (web-hosting.ts): on the
 * HTTP API with simple responses (payload 2.0) and its answers cached; on the WebSocket API, for
 * `$connect`, the one route API Gateway lets it guard, where API Gateway caches nothing
 * (AuthorizerResultTtlInSeconds is for HTTP APIs only).
 */
export function lambdaAuthorizers(id: string, fn: lambda.IFunction, entry: AuthorizerEntry) {
  return {
    http: new HttpLambdaAuthorizer(id, fn, {
      identitySource: [`$request.header.${entry.identityHeader}`],
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      resultsCacheTtl: Duration.seconds(entry.resultTtlSeconds),
    }),
    webSocket: new WebSocketLambdaAuthorizer(id, fn, {
      identitySource: [`route.request.header.${entry.identityHeader}`],
    }),
  };
}
