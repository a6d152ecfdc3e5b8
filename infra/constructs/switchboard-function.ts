import * as path from 'node:path';
import { Duration, RemovalPolicy, Stack, Tags } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ESM_REQUIRE_BANNER, EXTERNAL_MODULES, esbuildOptions, handlerEntry } from '../bundling';
import { acknowledge, acknowledgeWildcardResource } from './nag';

export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;
export const FUNCTION_TIMEOUT = Duration.seconds(10);
export const FUNCTION_MEMORY_MIB = 512;
/** scrypt with N=2^17, r=8 needs 128 MiB per hash and is CPU-bound; Lambda CPU grows with memory. */
export const PASSWORD_HASHING_MEMORY_MIB = 1024;
export const FUNCTION_LOG_RETENTION = logs.RetentionDays.ONE_MONTH;
/** Tag on every function built from the route table (value: the handler module), e.g. for tests and cost reports. */
export const HANDLER_TAG = 'switchboard:handler';

/** What every function of the app shares: the data, its secrets and its settings. */
export interface FunctionSettings {
  /** Repository root: entries, lock file and esbuild run from here. */
  readonly projectRoot: string;
  readonly table: dynamodb.ITable;
  readonly tableIndexNames: readonly string[];
  readonly jwtSecret: secretsmanager.ISecret;
  /** Name (a literal, so functions do not depend on the distribution) of the SSM parameter holding the app URL. */
  readonly appUrlParameterName: string;
  readonly mailFrom: string;
  readonly platformAdminEmails: string;
  readonly customerSecretsKey: kms.IKey;
}

export interface SwitchboardFunctionProps {
  /** Module below `functions/handlers/`, without extension, exporting `handler`. */
  readonly handler: string;
  readonly settings: FunctionSettings;
  readonly memorySize?: number;
  readonly environment?: Record<string, string>;
  /** Sends mail through SES v2 as `MAIL_FROM` (and only as that address). */
  readonly sendsMail?: boolean;
  /** Encrypts and decrypts customers' Twilio credentials with the customer-secrets key. */
  readonly usesCustomerSecrets?: boolean;
  /** Pushes realtime events to the connections of this WebSocket stage. */
  readonly pushesTo?: apigwv2.WebSocketStage;
}

/**
 * One function of the route table with the app's runtime defaults (Node.js 22 on arm64, ESM bundle
 * from infra/bundling.ts, own log group, Parameters and Secrets extension) and its grants, in one call.
 */
export class SwitchboardFunction extends Construct {
  readonly function: nodejs.NodejsFunction;

  constructor(scope: Construct, id: string, props: SwitchboardFunctionProps) {
    super(scope, id);
    const { settings } = props;
    const stack = Stack.of(this);

    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: FUNCTION_LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An own role instead of AWSLambdaBasicExecutionRole: logs may go to this function's log group only.
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Switchboard function ${props.handler}`,
    });
    logGroup.grantWrite(role);

    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry: path.join(settings.projectRoot, handlerEntry(props.handler)),
      handler: 'handler',
      projectRoot: settings.projectRoot,
      depsLockFilePath: path.join(settings.projectRoot, 'package-lock.json'),
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? FUNCTION_MEMORY_MIB,
      timeout: FUNCTION_TIMEOUT,
      role,
      logGroup,
      description: `Switchboard ${props.handler}`,
      paramsAndSecrets: lambda.ParamsAndSecretsLayerVersion.fromVersion(lambda.ParamsAndSecretsVersions.V1_0_103, {
        logLevel: lambda.ParamsAndSecretsLogLevel.WARN,
      }),
      environment: {
        TABLE_NAME: settings.table.tableName,
        NODE_OPTIONS: '--enable-source-maps',
        MAIL_FROM: settings.mailFrom,
        PLATFORM_ADMIN_EMAILS: settings.platformAdminEmails,
        JWT_SECRET_SECRET_ARN: settings.jwtSecret.secretArn,
        APP_URL_PARAMETER: settings.appUrlParameterName,
        CUSTOMER_SECRETS_KEY_ID: settings.customerSecretsKey.keyArn,
        ...props.environment,
      },
      bundling: {
        format: nodejs.OutputFormat.ESM,
        minify: esbuildOptions.minify,
        sourceMap: esbuildOptions.sourcemap,
        target: esbuildOptions.target,
        mainFields: [...esbuildOptions.mainFields],
        externalModules: [...EXTERNAL_MODULES],
        banner: ESM_REQUIRE_BANNER,
        // esbuild is a dev dependency: bundle locally, never in Docker.
        forceDockerBundling: false,
      },
    });
    Tags.of(this.function).add(HANDLER_TAG, props.handler);

    this.grantTable(role, settings);
    settings.jwtSecret.grantRead(role);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['ssm:GetParameter'],
        resources: [
          stack.formatArn({
            service: 'ssm',
            resource: 'parameter',
            resourceName: settings.appUrlParameterName.replace(/^\//, ''),
          }),
        ],
      }),
    );

    if (props.sendsMail) {
      // SES authorises against every identity involved (sender domain or address, and recipients while
      // the account is in the sandbox), so the resource is any identity and the sender is pinned instead.
      const identities = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [identities],
          conditions: { StringEqualsIgnoreCase: { 'ses:FromAddress': settings.mailFrom } },
        }),
      );
      acknowledgeWildcardResource(
        this,
        identities,
        'SES checks the sending permission against the sender identity and, in the SES sandbox, the recipient identities, which are not known in advance; the ses:FromAddress condition limits sending to the MailFrom address.',
      );
    }

    if (props.usesCustomerSecrets) {
      settings.customerSecretsKey.grant(role, 'kms:Encrypt', 'kms:Decrypt');
    }

    if (props.pushesTo) {
      const stage = props.pushesTo;
      stage.grantManagementApiAccess(role);
      acknowledgeWildcardResource(
        this,
        `${stack.formatArn({ service: 'execute-api', resource: stage.api.apiId })}/${stage.stageName}/*/@connections/*`,
        'Realtime pushes go to connection ids that exist only at run time; the grant is limited to the @connections management API of this one WebSocket stage.',
      );
    }

    acknowledge(
      this,
      'AwsSolutions-L1',
      'Node.js 22 is pinned on purpose: it is the esbuild target in infra/bundling.ts (LAMBDA_NODE_TARGET) that `npm run bench` measures; raise both together.',
    );
  }

  /**
   * Item-level access to the table and its named indexes only (no `index/*` wildcard). No Scan:
   * every list the app shows is a Query (DESIGN §4).
   */
  private grantTable(role: iam.IRole, settings: FunctionSettings): void {
    const { tableArn } = settings.table;
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:Query',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:BatchWriteItem',
          'dynamodb:ConditionCheckItem',
        ],
        resources: [tableArn, ...settings.tableIndexNames.map((indexName) => `${tableArn}/index/${indexName}`)],
      }),
    );
  }
}
