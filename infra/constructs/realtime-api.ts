import { RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { REALTIME_ROUTE_SELECTION } from '../../shared/contract/realtime';
import type { AnsweredSocketContract } from '../../shared/contract/route';
import { acknowledge } from './nag';

/** The stage is named like the public path: CloudFront forwards `/ws` unchanged and API Gateway reads it as the stage. */
export const REALTIME_STAGE_NAME = 'ws';
/** Client messages are heartbeats (one per socket every 30 s) and call answers: 300/s is 9,000 open tabs. */
export const REALTIME_THROTTLE = { rateLimit: 300, burstLimit: 600 } as const;
export const ACCESS_LOG_RETENTION = logs.RetentionDays.THREE_MONTHS;

const accessLogFormat = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    // Lambda's request id of the function that answered: the requestId of its JSON log lines.
    lambdaRequestId: '$context.integration.requestId',
    requestTime: '$context.requestTime',
    eventType: '$context.eventType',
    routeKey: '$context.routeKey',
    connectionId: '$context.connectionId',
    status: '$context.status',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    integrationLatency: '$context.integrationLatency',
    error: '$context.error.message',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/**
 * The WebSocket API of realtime events: one stage (`ws`), access logs, throttling. Routes are added
 * after the stage exists, so that their functions can be given its callback URL: they push too.
 */
export class RealtimeApi extends Construct {
  readonly api: apigwv2.WebSocketApi;
  readonly stage: apigwv2.WebSocketStage;
  private readonly connectAuthorizer: apigwv2.IWebSocketRouteAuthorizer;

  constructor(
    scope: Construct,
    id: string,
    props: {
      /**
       * Sets the account's (per region) API Gateway logging role, replacing any the account has. Off by
       * default: the role is a one-time prerequisite of the account (docs/deploy.md: Prepare the account),
       * and WebSocket access logs need it.
       */
      createAccountLoggingRole: boolean;
      /** On `$connect`, the one route API Gateway lets a WebSocket authorizer guard (origin-authorizer.ts). */
      connectAuthorizer: apigwv2.IWebSocketRouteAuthorizer;
    },
  ) {
    super(scope, id);
    this.connectAuthorizer = props.connectAuthorizer;
    this.api = new apigwv2.WebSocketApi(this, 'Api', {
      description: 'Switchboard realtime events',
      routeSelectionExpression: REALTIME_ROUTE_SELECTION,
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: ACCESS_LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigwv2.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: REALTIME_STAGE_NAME,
      autoDeploy: true,
      throttle: REALTIME_THROTTLE,
      accessLogSettings: { destination: new apigwv2.LogGroupLogDestination(accessLogs), format: accessLogFormat },
    });
    if (props.createAccountLoggingRole) this.stage.node.addDependency(this.cloudWatchLogsRole());
  }

  addRoute(routeKey: '$connect' | '$disconnect' | '$default', fn: lambda.IFunction): void {
    const integration = new WebSocketLambdaIntegration(`${routeName(routeKey)}Integration`, fn);
    if (routeKey === '$connect') {
      // The authorizer admits CloudFront's upgrades; the handler then redeems the single-use ticket.
      this.api.addRoute(routeKey, { integration, authorizer: this.connectAuthorizer });
      return;
    }
    acknowledge(
      this.api.addRoute(routeKey, { integration }),
      'AwsSolutions-APIG4',
      `${routeKey} is only reachable on a connection that $connect has already authorised; API Gateway allows an authorizer on $connect only.`,
    );
  }

  /**
   * A route API Gateway takes itself (socketHeartbeat, socketQuietHeartbeat): a MOCK integration whose
   * request template gives status 200 and, for a route with an answer, an integration response that
   * renders it and a route response that sends it back on the socket (a route without one is one-way).
   * No function is invoked; messages are billed as any other.
   */
  addAnsweredRoute(contract: AnsweredSocketContract): void {
    const id = routeName(contract.routeKey);
    const apiId = this.api.apiId;
    // A static selection expression picks the one template each way; the mock answers status 200.
    const integration = new apigwv2.CfnIntegration(this, `${id}Integration`, {
      apiId,
      integrationType: 'MOCK',
      templateSelectionExpression: '200',
      requestTemplates: { '200': '{"statusCode": 200}' },
    });
    const answer = contract.answerTemplate;
    if (answer) {
      new apigwv2.CfnIntegrationResponse(this, `${id}IntegrationResponse`, {
        apiId,
        integrationId: integration.ref,
        integrationResponseKey: '/200/',
        templateSelectionExpression: '200',
        responseTemplates: { '200': answer },
      });
    }
    const route = new apigwv2.CfnRoute(this, `${id}Route`, {
      apiId,
      routeKey: contract.routeKey,
      target: `integrations/${integration.ref}`,
      ...(answer ? { routeResponseSelectionExpression: '$default' } : {}),
    });
    if (answer) {
      new apigwv2.CfnRouteResponse(this, `${id}RouteResponse`, { apiId, routeId: route.ref, routeResponseKey: '$default' });
    }
    acknowledge(
      route,
      'AwsSolutions-APIG4',
      `${contract.routeKey} is only reachable on a connection that $connect has already authorised, and runs no code: API Gateway answers it.`,
    );
  }

  /**
   * Unlike HTTP APIs, WebSocket APIs write access logs through the account's (per region) API Gateway
   * CloudWatch role. This sets it, account-wide; both are kept when the stack is deleted, so other APIs of
   * the account keep logging (not after a rolled-back first create, which leaves nothing behind).
   */
  private cloudWatchLogsRole(): apigateway.CfnAccount {
    const role = new iam.Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
      description: 'API Gateway account setting: writes API access and execution logs to CloudWatch Logs',
    });
    role.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    acknowledge(
      role,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'This role is the account-wide API Gateway logging role (AWS::ApiGateway::Account), shared by every API of the account and region; the AWS managed policy is the documented one for it and keeps up with what API Gateway needs.',
    );
    const account = new apigateway.CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: role.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    return account;
  }
}

function routeName(routeKey: string): string {
  const name = routeKey.replace('$', '');
  return name.charAt(0).toUpperCase() + name.slice(1);
}
