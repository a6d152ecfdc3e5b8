import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, CfnParameter, Stack, type StackProps } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { fallbackRoute, httpRoutes, socketRoutes } from '../functions/routes';
import { AppTable } from './constructs/app-table';
import { HttpApi } from './constructs/http-api';
import { acknowledge } from './constructs/nag';
import { RealtimeApi } from './constructs/realtime-api';
import { type FunctionSettings, PASSWORD_HASHING_MEMORY_MIB, SwitchboardFunction } from './constructs/switchboard-function';
import { WebHosting } from './constructs/web-hosting';

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
      'The access-token signing key is read once per cold start; rotating it means deploying a new value (every signed-in user then refreshes once), which needs no rotation Lambda.',
    );

    const settings: FunctionSettings = {
      projectRoot: PROJECT_ROOT,
      table,
      tableIndexNames: indexNames,
      jwtSecret,
      appUrlParameterName: `/${this.stackName}/app-url`,
      mailFrom: mailFrom.valueAsString,
      platformAdminEmails: platformAdminEmails.valueAsString,
      customerSecretsKey,
    };
    const functionId = (handler: string) =>
      handler
        .split(/[/-]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join('');

    // WebSocket functions first: HTTP functions push through this API, never the other way round.
    const realtime = new RealtimeApi(this, 'Realtime', {
      routes: socketRoutes.map((route) => ({
        routeKey: route.contract.routeKey,
        function: new SwitchboardFunction(this, functionId(route.handler), { handler: route.handler, settings }).function,
      })),
    });

    const http = new HttpApi(this, 'Http', {
      routes: httpRoutes.map((route) => ({
        contract: route.contract,
        function: new SwitchboardFunction(this, functionId(route.handler), {
          handler: route.handler,
          settings,
          memorySize: route.handler.startsWith('auth/') ? PASSWORD_HASHING_MEMORY_MIB : undefined,
          environment: { WS_CALLBACK_URL: realtime.stage.callbackUrl },
          sendsMail: true,
          usesCustomerSecrets: route.contract.auth !== 'public',
          pushesTo: realtime.stage,
        }).function,
      })),
      // Only answers 404/405 envelopes: no mail, no pushes, no customer secrets.
      fallback: new SwitchboardFunction(this, functionId(fallbackRoute.handler), { handler: fallbackRoute.handler, settings })
        .function,
    });

    const executeApiDomain = (apiId: string) => `${apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    const web = new WebHosting(this, 'Web', {
      httpApiDomain: executeApiDomain(http.api.apiId),
      realtimeApiDomain: executeApiDomain(realtime.api.apiId),
      webDistPath: props.webDistPath ?? path.join(PROJECT_ROOT, 'web', 'dist'),
    });
    const appUrl = `https://${web.distribution.distributionDomainName}`;

    // Read by the functions at run time (verification links): an output of the distribution cannot be
    // an environment variable of functions the distribution depends on.
    new ssm.StringParameter(this, 'AppUrlParameter', {
      parameterName: settings.appUrlParameterName,
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
