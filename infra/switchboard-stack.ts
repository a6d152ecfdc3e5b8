import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotations, CfnOutput, CfnParameter, Duration, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as lambdaEvents from 'aws-cdk-lib/aws-lambda-event-sources';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { DEFAULT_HEALTH_INTERVAL_MINUTES } from '../functions/channels/health-sweep';
import { SECRET_CACHE_TTL_SECONDS } from '../functions/lib/config';
import {
  answeredSocketRoutes,
  fallbackRoute,
  httpRoutes,
  MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS,
  type NestedStackName,
  originAuthorizer,
  type QueueConsumerEntry,
  queueConsumers,
  type ScheduledJobEntry,
  scheduledJobs,
  socketRoutes,
} from '../functions/routes';
import { MEMBER_REMOVAL_SWEEP_MINUTES } from '../shared/constants';
import { TWILIO_WEBHOOKS } from '../shared/contract/route';
import { health } from '../shared/contract/system';
import { AppTable } from './constructs/app-table';
import { CustomDomain } from './constructs/custom-domain';
import { CustomerSecretsKey } from './constructs/customer-secrets-key';
import { HttpApi } from './constructs/http-api';
import { MailConfiguration } from './constructs/mail-configuration';
import { Monitoring } from './constructs/monitoring';
import { acknowledge } from './constructs/nag';
import { lambdaAuthorizers } from './constructs/origin-authorizer';
import { PictureBucket } from './constructs/picture-bucket';
import { RealtimeApi } from './constructs/realtime-api';
import { HTTP_FUNCTIONS_STACK, RouteStack } from './constructs/route-stacks';
import { SwitchboardFunctions } from './constructs/switchboard-function';
import { validateEveryTemplate } from './constructs/template-validation';
import { OptionalWebAcl } from './constructs/web-acl';
import { WebHosting } from './constructs/web-hosting';
import { contextFlag } from './context';
import { cloudFrontLogging, paramsAndSecretsLayerArn } from './regions';

/**
 * `npx cdk deploy -c switchboard:apiGatewayLoggingRole=true` sets the account's API Gateway logging role
 * (account-wide, once per region); `=false` says the account already has one (docs/deploy.md: Prepare the
 * account). Without either, synth warns, with the command that tells which applies.
 */
export const API_GATEWAY_LOGGING_ROLE_CONTEXT = 'switchboard:apiGatewayLoggingRole';
export const API_GATEWAY_LOGGING_ROLE_WARNING = 'switchboard:api-gateway-logging-role';
/** Prints the account's API Gateway logging role in the current region; "None" means there is none. */
export const API_GATEWAY_LOGGING_ROLE_CHECK = 'aws apigateway get-account --query cloudwatchRoleArn --output text';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SwitchboardStackProps extends StackProps {
  /** The built web app; defaults to `web/dist` of the repository. */
  readonly webDistPath?: string;
}

/** The whole app in one environment-agnostic stack, built from the route table and the table layout. */
export class SwitchboardStack extends Stack {
  constructor(scope: Construct, id: string, props: SwitchboardStackProps = {}) {
    super(scope, id, props);
    // The nested stacks' templates too (route-stacks.ts), which CDK's own validation does not see.
    validateEveryTemplate(this);

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
    const customerSecretsKey = new CustomerSecretsKey(this, 'CustomerSecretsKey').key;

    const jwtSecret = new secretsmanager.Secret(this, 'JwtSecret', {
      description: 'HS256 signing key of the access tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    acknowledge(
      jwtSecret,
      'AwsSolutions-SMG4',
      `Rotated by hand (docs/deploy.md: The access-token signing key) with put-secret-value, no rotation Lambda needed: functions read the key through the Parameters and Secrets extension, cached ${SECRET_CACHE_TTL_SECONDS} s, and keep accepting the AWSPREVIOUS key for one access-token lifetime after the rotation, so nobody is signed out.`,
    );
    const originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: 'Sent by CloudFront to the API origins; the APIs refuse requests without it',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledge(
      originSecret,
      'AwsSolutions-SMG4',
      'Rotated by hand (docs/deploy.md: The origin secret): CloudFront receives the value at deploy time, pinned to the version named by the OriginSecretVersion parameter, so a rotation is put-secret-value followed by a deploy with the new version id; functions accept the AWSPREVIOUS value too, so requests keep working in between.',
    );
    acknowledge(
      this,
      'CloudFormation-Validate::W2509',
      'OriginSecretVersion is the version id of the origin secret, not a secret: it is shown as a stack parameter on purpose, so an operator can compare it with the secret (docs/deploy.md: The origin secret).',
    );
    // CloudFormation resolves a dynamic reference only when the resource using it changes: naming the
    // version makes a rotation a change of the distribution. Empty: the version current at the deploy.
    const originSecretVersion = new CfnParameter(this, 'OriginSecretVersion', {
      type: 'String',
      default: '',
      allowedPattern: '^[A-Za-z0-9-]{0,64}$',
      constraintDescription: 'must be a Secrets Manager version id (as put-secret-value prints it), or empty',
      description:
        'Version id of the OriginSecret value CloudFront sends (docs/deploy.md: The origin secret); empty: the current version at the first deploy.',
    });

    const mail = new MailConfiguration(this, 'Mail');

    // Deleting a company goes on here in steps (docs/product.md: Deleting a company). A message is
    // visible again six times the worker's timeout after a failed try (Lambda's advice for SQS sources); after five
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

    // Pictures sent in texts (docs/product.md: Pictures out).
    const pictures = new PictureBucket(this, 'Pictures');

    const functions = new SwitchboardFunctions(this, 'Functions', {
      projectRoot: PROJECT_ROOT,
      table,
      tableIndexNames: indexNames,
      jwtSecret,
      originSecret,
      appUrlParameterName: `/${this.stackName}/app-url`,
      mailFrom: mailFrom.valueAsString,
      mailConfigurationSet: mail,
      platformAdminEmails: platformAdminEmails.valueAsString,
      customerSecretsKey,
      paramsAndSecretsLayerArn: paramsAndSecretsLayerArn(this),
      companyDeletionQueue,
      pictureBucket: pictures.bucket,
    });
    const functionId = (handler: string) =>
      handler
        .split(/[/-]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join('');

    // One function in front of both APIs: a direct call to an execute-api endpoint runs no route function.
    const authorizers = lambdaAuthorizers(
      'OriginAuthorizer',
      functions.add(functionId(originAuthorizer.handler), { ...originAuthorizer, kind: 'authorizer' }),
      originAuthorizer,
    );

    // The WebSocket API first: its stage is where every pushing function (socket routes included) pushes.
    const createAccountLoggingRole = contextFlag(this, API_GATEWAY_LOGGING_ROLE_CONTEXT);
    const realtime = new RealtimeApi(this, 'Realtime', {
      createAccountLoggingRole: createAccountLoggingRole === true,
      connectAuthorizer: authorizers.webSocket,
    });
    if (createAccountLoggingRole === undefined) {
      // A fresh account has no role, and the WebSocket stage then fails and the first deploy rolls back.
      Annotations.of(realtime).addWarningV2(
        API_GATEWAY_LOGGING_ROLE_WARNING,
        `WebSocket access logs need API Gateway's CloudWatch Logs role in this account and region. Check: \`${API_GATEWAY_LOGGING_ROLE_CHECK}\`. "None": deploy with -c ${API_GATEWAY_LOGGING_ROLE_CONTEXT}=true (the stack sets it); an ARN: deploy with -c ${API_GATEWAY_LOGGING_ROLE_CONTEXT}=false (this warning goes away).`,
      );
    }
    functions.realtimeStage = realtime.stage;
    for (const route of socketRoutes) {
      realtime.addRoute(route.contract.routeKey, functions.add(functionId(route.handler), { ...route, kind: 'socket' }));
    }
    for (const route of answeredSocketRoutes) realtime.addAnsweredRoute(route);

    const queues: Record<QueueConsumerEntry['queue'], sqs.IQueue> = { companyDeletion: companyDeletionQueue };
    for (const consumer of queueConsumers) {
      functions
        .add(functionId(consumer.handler), { ...consumer, kind: 'queue' })
        // One step at a time: a step runs until its time is short and queues the next itself.
        .addEventSource(new lambdaEvents.SqsEventSource(queues[consumer.queue], { batchSize: 1 }));
    }

    // Background checks on a schedule: each job's interval is a stack parameter (docs/product.md: Channel health).
    const channelHealthInterval = new CfnParameter(this, 'ChannelHealthIntervalMinutes', {
      type: 'Number',
      default: DEFAULT_HEALTH_INTERVAL_MINUTES,
      // EventBridge's rate() takes "1 minute" but "5 minutes": from 5 on, one form fits every value.
      minValue: 5,
      maxValue: 1440,
      description: 'Minutes between two checks of every active channel in Twilio (docs/product.md: Channel health).',
    });
    // Unfinished member removals are finished within minutes, at a fixed rate (docs/product.md: Removed members).
    const intervals: Record<ScheduledJobEntry['schedule'], { text: string; minutes: number }> = {
      channelHealth: { text: channelHealthInterval.valueAsString, minutes: channelHealthInterval.valueAsNumber },
      memberRemovals: { text: String(MEMBER_REMOVAL_SWEEP_MINUTES), minutes: MEMBER_REMOVAL_SWEEP_MINUTES },
    };
    const routeStacks = new Map<string, RouteStack>();
    const routeStack = (id: NestedStackName | typeof HTTP_FUNCTIONS_STACK) => {
      const known = routeStacks.get(id) ?? new RouteStack(this, id);
      routeStacks.set(id, known);
      return known;
    };
    for (const job of scheduledJobs) {
      const interval = intervals[job.schedule];
      // A job that names a nested stack has its function, rule and invoke permission there; its role stays here.
      const nested = job.stack === undefined ? undefined : routeStack(job.stack);
      new events.Rule(nested ?? this, `${functionId(job.handler)}Schedule`, {
        description: `Runs ${job.handler} every ${job.schedule} interval`,
        schedule: events.Schedule.expression(`rate(${interval.text} minutes)`),
        targets: [
          new eventTargets.LambdaFunction(
            functions.add(functionId(job.handler), { ...job, kind: 'schedule' }, nested?.functions),
            {
              event: events.RuleTargetInput.fromObject({ intervalMinutes: interval.minutes }),
              // A run that failed is not tried again: the next one comes within the interval.
              retryAttempts: 0,
            },
          ),
        ],
      });
    }

    // Where each HTTP route deploys is its entry's `stack`. Without one, its API route and integration
    // stay here, where they were deployed first, and its function and invoke permission are in
    // HttpFunctions, so this template stays under MAX_TEMPLATE_RESOURCES (docs/architecture.md: Stack sizes).
    const http = new HttpApi(this, 'Http', {
      routes: httpRoutes.map((route) => {
        const stack = route.stack === undefined ? undefined : routeStack(route.stack);
        return {
          contract: route.contract,
          function: functions.add(
            functionId(route.handler),
            { ...route, kind: 'http' },
            (stack ?? routeStack(HTTP_FUNCTIONS_STACK)).functions,
          ),
          scope: stack?.routes,
        };
      }),
      fallback: functions.add(
        functionId(fallbackRoute.handler),
        { ...fallbackRoute, kind: 'http' },
        routeStack(HTTP_FUNCTIONS_STACK).functions,
      ),
      authorizer: authorizers.http,
    });

    new Monitoring(this, 'Monitoring', {
      table,
      tableIndexNames: indexNames,
      httpApi: http.api,
      httpAccessLogs: http.accessLogs,
      realtimeApi: realtime.api,
      realtimeStageName: realtime.stage.stageName,
      mailConfigurationSetName: mail.name,
      deadLetterQueues: [companyDeletionDeadLetters],
    });

    const executeApiDomain = (apiId: string) => `${apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    const webAcl = new OptionalWebAcl(this, 'Firewall');
    const web = new WebHosting(this, 'Web', {
      originSecret: SecretValue.secretsManager(originSecret.secretArn, {
        versionId: originSecretVersion.valueAsString,
      }).unsafeUnwrap(),
      accessLogs: cloudFrontLogging(this),
      webAclArn: webAcl.arn,
      httpApiDomain: executeApiDomain(http.api.apiId),
      realtimeApiDomain: executeApiDomain(realtime.api.apiId),
      picturesDomain: pictures.bucket.bucketRegionalDomainName,
      webDistPath: props.webDistPath ?? path.join(PROJECT_ROOT, 'web', 'dist'),
    });
    const domain = new CustomDomain(this, 'Domain');
    domain.applyTo(web.distribution);
    const appUrl = domain.appUrl(web.distribution);
    pictures.allowBrowsers();

    // Read by the functions at run time (verification links): an output of the distribution cannot be
    // an environment variable of functions the distribution depends on.
    new ssm.StringParameter(this, 'AppUrlParameter', {
      parameterName: functions.settings.appUrlParameterName,
      stringValue: appUrl,
      description: 'Public URL of the Switchboard web app',
    });

    new CfnOutput(this, 'AppUrl', {
      value: appUrl,
      description: 'Open the app here (https://<DomainName>, or the CloudFront domain without one)',
    });
    new CfnOutput(this, 'HealthUrl', {
      value: `${appUrl}${health.path}`,
      description: 'Smoke check: answers {"success":true,"data":{"status":"ok"}} through CloudFront and the HTTP API',
    });
    new CfnOutput(this, 'DistributionId', {
      value: web.distribution.distributionId,
      description: 'The CloudFront distribution (origin headers, invalidations)',
    });
    new CfnOutput(this, 'DistributionDomainName', {
      value: web.distribution.distributionDomainName,
      description: "The distribution's own domain: point DomainName's CNAME or alias record here",
    });
    new CfnOutput(this, 'TwilioWebhookBaseUrl', {
      value: `${appUrl}${TWILIO_WEBHOOKS}`,
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
    acknowledge(
      this,
      'CloudFormation-Validate::W1001',
      "The TableName and CustomerSecretsKeyArn outputs name the stack's own table and key only under their conditions (Fn::If on CreatesTable / CreatesCustomerSecretsKey), the ExistingTableName / ExistingKeyArn parameter otherwise.",
    );
    acknowledge(
      this,
      'CloudFormation-Validate::W1001',
      "The TableName and CustomerSecretsKeyArn outputs name the stack's own table and key only under their conditions (Fn::If on CreatesTable / CreatesCustomerSecretsKey), the ExistingTableName / ExistingKeyArn parameter otherwise.",
    );
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'DynamoDB table of all app data' });
    new CfnOutput(this, 'CustomerSecretsKeyArn', {
      value: customerSecretsKey.keyArn,
      description: "KMS key of the customers' Twilio credentials: a restored table needs this same key (ExistingKeyArn)",
    });
    new CfnOutput(this, 'OriginSecretArn', {
      value: originSecret.secretArn,
      description: 'Secret CloudFront sends to the APIs: rotate with put-secret-value, then deploy with OriginSecretVersion',
    });
    new CfnOutput(this, 'JwtSecretArn', {
      value: jwtSecret.secretArn,
      description: 'Access-token signing key: rotate with put-secret-value, no deploy needed',
    });
  }
}
