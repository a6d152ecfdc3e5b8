import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, CfnParameter, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambdaEvents from 'aws-cdk-lib/aws-lambda-event-sources';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { SECRET_CACHE_TTL_SECONDS } from '../functions/lib/config';
import {
  fallbackRoute,
  httpRoutes,
  MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS,
  type QueueConsumerEntry,
  queueConsumers,
  socketRoutes,
} from '../functions/routes';
import { AppTable } from './constructs/app-table';
import { HttpApi } from './constructs/http-api';
import { acknowledge } from './constructs/nag';
import { RealtimeApi } from './constructs/realtime-api';
import { PASSWORD_HASHING_MEMORY_MIB, SwitchboardFunctions } from './constructs/switchboard-function';
import { OptionalWebAcl } from './constructs/web-acl';
import { WebHosting } from './constructs/web-hosting';
import { cloudFrontLogging, paramsAndSecretsLayerArn } from './regions';

/**
 * `npx cdk deploy -c switchboard:apiGatewayLoggingRole=true` sets the account's API Gateway logging
 * role (account-wide, once per region); without it the account must already have one (README).
 */
export const API_GATEWAY_LOGGING_ROLE_CONTEXT = 'switchboard:apiGatewayLoggingRole';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SwitchboardStackProps extends StackProps {
  /** The built web app; defaults to `web/dist` of the repository. */
  readonly webDistPath?: string;
}

/** The whole app in one environment-agnostic stack, built from the route table and the table layout. */
export class SwitchboardStack extends Stack {
  constructor(scope: Construct, id: string, props: SwitchboardStackProps = {}) {
    super(scope, id, props);

    const mailFrom = new CfnParameter(this, 'MailFrom', {
      type: 'String',
      description: 'Sender of the verification mails: an e-mail address (or an address of a domain) verified in Amazon SES.',
      allowedPattern: '^[^@\\s<>]+@[^@\\s<>]+\\.[^@\\s<>]+$',
      constraintDescription: 'must be a plain e-mail address such as no-reply@example.com',
    });
    const platformAdminEmails = new CfnParameter(this, 'PlatformAdminEmails', {
      type: 'String',
      default: '',
      description: 'Comma-separated e-mail addresses of the platform administrators (may be empty).',
    });

    const { table, indexNames } = new AppTable(this, 'Data');

    const customerSecretsKey = new kms.Key(this, 'CustomerSecretsKey', {
      description: "Encrypts customers' Twilio credentials (encryption context: company id)",
      enableKeyRotation: true,
    });

    const jwtSecret = new secretsmanager.Secret(this, 'JwtSecret', {
      description: 'HS256 signing key of the access tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    acknowledge(
      jwtSecret,
      'AwsSolutions-SMG4',
      `Rotated by hand (README: rotating the signing key) with put-secret-value, no rotation Lambda needed: functions read the key through the Parameters and Secrets extension, cached ${SECRET_CACHE_TTL_SECONDS} s, and keep accepting the AWSPREVIOUS key for one access-token lifetime after the rotation, so nobody is signed out.`,
    );
    const originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: 'Sent by CloudFront to the API origins; functions refuse requests without it',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledge(
      originSecret,
      'AwsSolutions-SMG4',
      'CloudFront receives the value at deploy time (a dynamic reference in its origin headers), so a rotation must be followed by a deploy; functions accept the AWSPREVIOUS value too, so requests keep working in between.',
    );

    // Deleting a company goes on here in steps (README: Deleting a company). A message is visible again
    // six times the worker's timeout after a failed try (Lambda's advice for SQS sources); after five
    // tries it waits in the dead-letter queue for the operator, who can redrive it (every step is idempotent).
    const companyDeletionDeadLetters = new sqs.Queue(this, 'CompanyDeletionDeadLetters', {
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
    });
    const companyDeletionQueue = new sqs.Queue(this, 'CompanyDeletionQueue', {
      visibilityTimeout: Duration.seconds(6 * MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS),
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: companyDeletionDeadLetters, maxReceiveCount: 5 },
    });

    const functions = new SwitchboardFunctions(this, 'Functions', {
      projectRoot: PROJECT_ROOT,
      table,
      tableIndexNames: indexNames,
      jwtSecret,
      originSecret,
      appUrlParameterName: `/${this.stackName}/app-url`,
      mailFrom: mailFrom.valueAsString,
      platformAdminEmails: platformAdminEmails.valueAsString,
      customerSecretsKey,
      paramsAndSecretsLayerArn: paramsAndSecretsLayerArn(this),
      companyDeletionQueue,
    });
    const functionId = (handler: string) =>
      handler
        .split(/[/-]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join('');

    // The WebSocket API first: its stage is where every pushing function (socket routes included) pushes.
    const realtime = new RealtimeApi(this, 'Realtime', {
      createAccountLoggingRole: this.node.tryGetContext(API_GATEWAY_LOGGING_ROLE_CONTEXT) === true,
    });
    functions.realtimeStage = realtime.stage;
    for (const route of socketRoutes) {
      realtime.addRoute(route.contract.routeKey, functions.add(functionId(route.handler), { ...route, kind: 'socket' }));
    }

    const queues: Record<QueueConsumerEntry['queue'], sqs.IQueue> = { companyDeletion: companyDeletionQueue };
    for (const consumer of queueConsumers) {
      functions
        .add(functionId(consumer.handler), { ...consumer, kind: 'queue' })
        // One step at a time: a step runs until its time is short and queues the next itself.
        .addEventSource(new lambdaEvents.SqsEventSource(queues[consumer.queue], { batchSize: 1 }));
    }

    const http = new HttpApi(this, 'Http', {
      routes: httpRoutes.map((route) => ({
        contract: route.contract,
        function: functions.add(functionId(route.handler), {
          ...route,
          kind: 'http',
          memorySize: route.handler.startsWith('auth/') ? PASSWORD_HASHING_MEMORY_MIB : undefined,
        }),
      })),
      fallback: functions.add(functionId(fallbackRoute.handler), { ...fallbackRoute, kind: 'http' }),
    });

    const executeApiDomain = (apiId: string) => `${apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    const webAcl = new OptionalWebAcl(this, 'Firewall');
    const web = new WebHosting(this, 'Web', {
      originSecret: originSecret.secretValue.unsafeUnwrap(),
      accessLogs: cloudFrontLogging(this),
      webAclArn: webAcl.arn,
      httpApiDomain: executeApiDomain(http.api.apiId),
      realtimeApiDomain: executeApiDomain(realtime.api.apiId),
      webDistPath: props.webDistPath ?? path.join(PROJECT_ROOT, 'web', 'dist'),
    });
    const appUrl = `https://${web.distribution.distributionDomainName}`;

    // Read by the functions at run time (verification links): an output of the distribution cannot be
    // an environment variable of functions the distribution depends on.
    new ssm.StringParameter(this, 'AppUrlParameter', {
      parameterName: functions.settings.appUrlParameterName,
      stringValue: appUrl,
      description: 'Public URL of the Switchboard web app',
    });

    new CfnOutput(this, 'AppUrl', { value: appUrl, description: 'Open the app here' });
    new CfnOutput(this, 'TwilioWebhookBaseUrl', {
      value: `${appUrl}/webhooks/twilio`,
      description: 'Base of the Twilio webhook URLs; the app configures the numbers it imports itself',
    });
    new CfnOutput(this, 'HttpApiUrl', {
      value: http.stage.url,
      description: 'HTTP API endpoint (the browser uses it through the AppUrl /api/*)',
    });
    new CfnOutput(this, 'WebSocketUrl', {
      value: realtime.stage.url,
      description: 'WebSocket API endpoint (the browser uses it through the AppUrl /ws)',
    });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'DynamoDB table of all app data' });
  }
}
