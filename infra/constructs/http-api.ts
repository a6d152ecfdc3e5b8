import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { logout, refresh } from '../../shared/contract/auth';
import type { HttpContract } from '../../shared/contract/route';
import { ACCESS_LOG_RETENTION } from './realtime-api';

/**
 * Every company shares the stage: sized for a few dozen busy companies (the soak run sends about 30
 * requests/s for one), well under API Gateway's account quota of 10,000/s. Twilio never retries a
 * text it got a 429 for, so the limit stays far above the inbound peak.
 */
export const HTTP_THROTTLE = { rateLimit: 1000, burstLimit: 2000 } as const;
/**
 * The public auth routes (sign-up, sign-in, refresh, verification) get their own, lower limits, so a
 * flood of them cannot use up the stage's for every signed-in user (and the reverse).
 */
export const AUTH_ROUTE_THROTTLE = { rateLimit: 10, burstLimit: 20 } as const;
/**
 * Refresh and sign-out keep every signed-in tab signed in, so they are out of that small limit (issue
 * 21, "Sessions": about 20 junk requests a second used to make every user's refresh fail). Room for
 * every tab of tens of thousands of users refreshing each 15 minutes, still a fifth of the stage's;
 * junk from one address stops at the handler's per-address limit (auth/limits.ts) first.
 */
export const SESSION_ROUTE_THROTTLE = { rateLimit: 200, burstLimit: 400 } as const;

const accessLogFormat = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    // Lambda's request id of the function that answered: the requestId of its JSON log lines.
    lambdaRequestId: '$context.integration.requestId',
    requestTime: '$context.requestTime',
    httpMethod: '$context.httpMethod',
    path: '$context.path',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    error: '$context.error.message',
    integrationError: '$context.integrationErrorMessage',
  }),
);

export interface HttpApiRoute {
  readonly contract: Pick<HttpContract, 'method' | 'path' | 'auth'>;
  readonly function: lambda.IFunction;
  /**
   * Where the API route and its integration go: a nested stack (route-stacks.ts); this construct when
   * absent. The API, stage and authorizer stay here; the invoke permission is beside the function.
   */
  readonly scope?: Construct;
}

/**
 * A Lambda proxy integration whose invoke permission is created beside the function, in its stack,
 * rather than beside the API route: a function in a nested stack takes its permission along, and the
 * parent keeps only the route and integration (docs/architecture.md: Stack sizes).
 */
class LambdaIntegration extends HttpLambdaIntegration {
  constructor(
    private readonly name: string,
    private readonly fn: lambda.IFunction,
  ) {
    super(name, fn);
  }

  protected override completeBind(options: apigwv2.HttpRouteIntegrationBindOptions): void {
    const { route } = options;
    // For this route of the API only, as HttpLambdaIntegration grants it.
    this.fn.addPermission(`${this.name}-Permission`, {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(this.fn).formatArn({
        service: 'execute-api',
        resource: route.httpApi.apiId,
        resourceName: `*/*${route.path ?? ''}`,
      }),
    });
  }
}

export const isAuthRoute = (contract: HttpApiRoute['contract']) =>
  contract.auth === 'public' && contract.path.startsWith('/api/v1/auth/');

/** Refresh and sign-out: public auth routes with their own, larger limits (SESSION_ROUTE_THROTTLE). */
const SESSION_ROUTES = new Set([refresh, logout].map((c) => `${c.method} ${c.path}`));
export const isSessionRoute = (contract: HttpApiRoute['contract']) =>
  isAuthRoute(contract) && SESSION_ROUTES.has(`${contract.method} ${contract.path}`);

const routeThrottle = (contract: HttpApiRoute['contract']) =>
  isSessionRoute(contract) ? SESSION_ROUTE_THROTTLE : AUTH_ROUTE_THROTTLE;

/**
 * The HTTP API: one route per route-table entry, `$default` answering everything else (404/405
 * envelopes), a `$default` stage with JSON access logs and throttling.
 */
export class HttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  /** One JSON line per request (accessLogFormat); the monitoring counts webhook failures from it. */
  readonly accessLogs: logs.LogGroup;

  constructor(
    scope: Construct,
    id: string,
    props: {
      routes: readonly HttpApiRoute[];
      fallback: lambda.IFunction;
      /** On every route, `$default` too: only requests through CloudFront reach a function (origin-authorizer.ts). */
      authorizer: apigwv2.IHttpRouteAuthorizer;
    },
  ) {
    super(scope, id);
    // Same-origin behind CloudFront, so no CORS configuration.
    this.api = new apigwv2.HttpApi(this, 'Api', { description: 'Switchboard HTTP API', createDefaultStage: false });

    const routes: { route: apigwv2.HttpRoute; contract: HttpApiRoute['contract'] }[] = [];
    // The authorizer admits CloudFront's requests; who the user is, the route's handler checks
    // (defineHandler: the access token; defineWebhook: Twilio's signature).
    for (const route of props.routes) {
      const { method, path } = route.contract;
      // Construct ids cannot contain '/'.
      const name = `${method} ${path.replaceAll('/', ' ').trim()}`;
      routes.push({
        route: new apigwv2.HttpRoute(route.scope ?? this, name, {
          httpApi: this.api,
          routeKey: apigwv2.HttpRouteKey.with(path, apigwv2.HttpMethod[method]),
          integration: new LambdaIntegration(`${name} Integration`, route.function),
          authorizer: props.authorizer,
        }),
        contract: route.contract,
      });
    }
    new apigwv2.HttpRoute(this, 'Fallback', {
      httpApi: this.api,
      routeKey: apigwv2.HttpRouteKey.DEFAULT,
      integration: new LambdaIntegration('FallbackIntegration', props.fallback),
      authorizer: props.authorizer,
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: ACCESS_LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: HTTP_THROTTLE,
      accessLogSettings: { destination: new apigwv2.LogGroupLogDestination(this.accessLogs), format: accessLogFormat },
    });
    const authRoutes = props.routes.filter((route) => isAuthRoute(route.contract));
    (this.stage.node.defaultChild as apigwv2.CfnStage).routeSettings = Object.fromEntries(
      authRoutes.map((route) => {
        const throttle = routeThrottle(route.contract);
        return [
          `${route.contract.method} ${route.contract.path}`,
          // A JSON map in CloudFormation's own casing (the L1 type passes it through as it is).
          { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit },
        ];
      }),
    );
    // Route settings name routes that must exist first. A nested stack's route is waited for only when
    // named: the stage would wait for that whole stack otherwise.
    for (const { route, contract } of routes) {
      if (Stack.of(route) === Stack.of(this) || isAuthRoute(contract)) this.stage.node.addDependency(route);
    }
  }
}
