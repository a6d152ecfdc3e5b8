import * as path from 'node:path';
import { CfnParameter, Duration, NestedStack, RemovalPolicy, Stack, Tags, Token } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  type Capability,
  DEFAULT_TIMEOUT_SECONDS,
  KMS_ACTIONS,
  type PictureOperation,
  TABLE_ACTIONS,
  type TableAccess,
} from '../../functions/lib/capabilities';
import { SECRET_CACHE_TTL_SECONDS } from '../../functions/lib/config';
import { SENT_PREFIX, UNSENT_PREFIX } from '../../functions/lib/picture-bucket-keys';
import type { RouteEntry } from '../../functions/routes';
import type { SocketContract } from '../../shared/contract/route';
import { ESM_REQUIRE_BANNER, EXTERNAL_MODULES, esbuildOptions, handlerAliasArgs, handlerEntry } from '../bundling';
import { acknowledge, acknowledgeWildcardResource } from './nag';

/**
 * Functions that get the viewer's request, so CloudFront's origin secret, and refuse it without: the
 * origin authorizer in front of both APIs and, behind it as defence in depth, every HTTP route and
 * `$connect` (the socket's upgrade). `$default` and `$disconnect` come from API Gateway on a socket
 * already admitted, without the viewer's headers.
 */
export const checksOriginSecret = (route: FunctionRoute) =>
  route.kind === 'http' || route.kind === 'authorizer' || (route.contract as SocketContract | undefined)?.routeKey === '$connect';

export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;
export const FUNCTION_MEMORY_MIB = 512;
/** scrypt with N=2^17, r=8 needs 128 MiB per hash and is CPU-bound; Lambda CPU grows with memory. */
export const PASSWORD_HASHING_MEMORY_MIB = 1024;
export const FUNCTION_LOG_RETENTION = logs.RetentionDays.ONE_MONTH;
/** Tag on every function built from the route table (value: the handler module), e.g. for tests and cost reports. */
export const HANDLER_TAG = 'switchboard:handler';

/** What every function of the app may share: the data, its secrets and its settings. */
export interface FunctionSettings {
  /** Repository root: entries, lock file and esbuild run from here. */
  readonly projectRoot: string;
  readonly table: dynamodb.ITable;
  readonly tableIndexNames: readonly string[];
  readonly jwtSecret: secretsmanager.ISecret;
  /** The secret CloudFront sends to both APIs; the origin authorizer, every HTTP function and `$connect` check it. */
  readonly originSecret: secretsmanager.ISecret;
  /** Name (a literal, so functions do not depend on the distribution) of the SSM parameter holding the app URL. */
  readonly appUrlParameterName: string;
  readonly mailFrom: string;
  /**
   * The SES configuration set every mail is sent with (mail-configuration.ts: bounce and complaint
   * metrics): its name, and what the functions send with ('' where the region has none).
   */
  readonly mailConfigurationSet: { readonly name: string; readonly nameForSending: string };
  readonly platformAdminEmails: string;
  readonly customerSecretsKey: kms.IKey;
  /** The ARN of the Parameters and Secrets extension layer (arm64) in the stack's region. */
  readonly paramsAndSecretsLayerArn: string;
  /** Where a company's deletion goes on in the background (the `companyDeletion` capability sends to it). */
  readonly companyDeletionQueue: sqs.IQueue;
  /** The private bucket of pictures sent in texts (the `pictures` capability, with its declared operations). */
  readonly pictureBucket: s3.IBucket;
}

export interface FunctionRoute extends RouteEntry {
  /**
   * `http`: an HTTP API route; `socket`: a WebSocket route (with its contract); `queue`: a queue's
   * consumer; `schedule`: run by an EventBridge schedule; `authorizer`: API Gateway's Lambda authorizer of both APIs.
   */
  readonly kind: 'http' | 'socket' | 'queue' | 'schedule' | 'authorizer';
  readonly contract?: unknown;
}

/**
 * The functions of the route table with the app's runtime defaults (Node.js 22 on arm64, ESM bundle from
 * infra/bundling.ts, Parameters and Secrets extension), each granted exactly what its route declares: its
 * table access, capabilities and KMS operations. To stay far below CloudFormation's 500 resources as routes
 * are added, functions with the same declarations share one role, and the functions of one feature (the
 * handler folder, or the entry's `logGroup`) one log group: a route adds a function, its API route, integration and invoke permission,
 * nothing more. A function may be created in a nested stack of this one (`add`'s scope; docs/deploy.md: The
 * nested stack of new features): its role and log group stay here, shared.
 */
export class SwitchboardFunctions extends Construct {
  private readonly roles = new Map<string, iam.Role>();
  private readonly logGroups = new Map<string, logs.LogGroup>();
  /** The extension layer as each stack names it (this one's, then each nested stack's). */
  private readonly layers = new Map<Stack, lambda.ParamsAndSecretsLayerVersion>();
  /** The values of this stack passed to each nested stack (valueIn): parameter, and the value as resolved here. */
  private readonly passed = new Map<Stack, Map<string, { parameter: CfnParameter; resolved: string }>>();
  /**
   * The WebSocket stage realtime pushes go to, for functions with the `publish` capability; set once
   * the WebSocket API exists, before any function that pushes (its own route functions included).
   */
  realtimeStage?: apigwv2.WebSocketStage;

  constructor(
    scope: Construct,
    id: string,
    readonly settings: FunctionSettings,
  ) {
    super(scope, id);
  }

  /**
   * The function of a route-table entry, created in `scope` (default: here). Another scope must be in
   * this stack or in a nested stack of it; the function gets the same role, log group, environment
   * and layer there (the values of this stack passed as parameters, valueIn).
   */
  add(constructId: string, route: FunctionRoute, scope: Construct = this): nodejs.NodejsFunction {
    const { settings } = this;
    const stack = Stack.of(scope);
    const logGroup = this.logGroupFor(route.logGroup ?? (route.handler.split('/')[0] as string));
    const role = this.roleFor(route);
    logGroup.grantWrite(role);
    const environment = Object.fromEntries(
      Object.entries({ ...this.baseEnvironment(route), ...this.capabilityEnvironment(route.capabilities) }).map(
        ([name, value]) => [name, this.valueIn(stack, pascal(name.toLowerCase()), value)],
      ),
    );

    const fn = new nodejs.NodejsFunction(scope, constructId, {
      entry: path.join(settings.projectRoot, handlerEntry(route.handler)),
      handler: 'handler',
      projectRoot: settings.projectRoot,
      depsLockFilePath: path.join(settings.projectRoot, 'package-lock.json'),
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: route.hashesPasswords ? PASSWORD_HASHING_MEMORY_MIB : FUNCTION_MEMORY_MIB,
      timeout: Duration.seconds(route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      role,
      logGroup,
      // One JSON object a line, with Lambda's request id on each (docs/operations.md: Logs).
      loggingFormat: lambda.LoggingFormat.JSON,
      description: `Switchboard ${route.handler}`,
      paramsAndSecrets: this.layerIn(stack),
      environment,
      bundling: {
        format: nodejs.OutputFormat.ESM,
        minify: esbuildOptions.minify,
        sourceMap: esbuildOptions.sourcemap,
        target: esbuildOptions.target,
        mainFields: [...esbuildOptions.mainFields],
        externalModules: [...EXTERNAL_MODULES],
        banner: ESM_REQUIRE_BANNER,
        esbuildArgs: handlerAliasArgs(route.handler),
        // esbuild is a dev dependency: bundle locally, never in Docker.
        forceDockerBundling: false,
      },
    });
    Tags.of(fn).add(HANDLER_TAG, route.handler);
    acknowledge(
      fn,
      'AwsSolutions-L1',
      'Node.js 22 is pinned on purpose: it is the esbuild target in infra/bundling.ts (LAMBDA_NODE_TARGET) that `npm run bench` measures; raise both together.',
    );
    return fn;
  }

  private layerIn(stack: Stack): lambda.ParamsAndSecretsLayerVersion {
    let layer = this.layers.get(stack);
    if (!layer) {
      const arn = this.valueIn(stack, 'ParamsAndSecretsLayerArn', this.settings.paramsAndSecretsLayerArn);
      layer = lambda.ParamsAndSecretsLayerVersion.fromVersionArn(arn, {
        logLevel: lambda.ParamsAndSecretsLogLevel.WARN,
        // Secrets are cached by the functions themselves (config.ts: the missing AWSPREVIOUS too, which
        // the extension would ask Secrets Manager for on every request); a second cache here would
        // double the time a rotated secret may still be served. Parameters: the extension's cache.
        secretsManagerTtl: Duration.seconds(0),
        parameterStoreTtl: Duration.seconds(SECRET_CACHE_TTL_SECONDS),
      });
      this.layers.set(stack, layer);
    }
    return layer;
  }

  /**
   * A value of this stack as `stack` can use it: itself here (or when it is a literal), else a
   * parameter of that nested stack, which this stack sets. CDK passes a plain reference (Ref, GetAtt)
   * into a nested stack by itself, but copies any other expression as it is, and this stack's values
   * are built from its conditions and mappings (the table or key in use, the layer of the region),
   * which the nested template does not have: every one goes as a parameter, named after what it is.
   */
  private valueIn(stack: Stack, name: string, value: string): string {
    const here = Stack.of(this);
    if (stack === here || !Token.isUnresolved(value)) return value;
    if (!NestedStack.isNestedStack(stack) || stack.nestedStackParent !== here) {
      throw new Error(`${stack.node.path}: functions go in ${here.node.path} or a nested stack of it`);
    }
    const resolved = JSON.stringify(here.resolve(value));
    const passed = this.passed.get(stack) ?? new Map();
    this.passed.set(stack, passed);
    const known = passed.get(name);
    if (known) {
      if (known.resolved !== resolved) throw new Error(`${name}: two values for one parameter of ${stack.node.path}`);
      return known.parameter.valueAsString;
    }
    const parameter = new CfnParameter(stack, name, { type: 'String', description: `Passed in by the stack ${here.stackName}` });
    stack.setParameter(parameter.logicalId, value);
    passed.set(name, { parameter, resolved });
    return parameter.valueAsString;
  }

  private baseEnvironment(route: FunctionRoute): Record<string, string> {
    const { settings } = this;
    return {
      TABLE_NAME: settings.table.tableName,
      NODE_OPTIONS: '--enable-source-maps',
      PLATFORM_ADMIN_EMAILS: settings.platformAdminEmails,
      ...(checksOriginSecret(route) ? { ORIGIN_SECRET_SECRET_ARN: settings.originSecret.secretArn } : {}),
    };
  }

  /** The variables of CAPABILITY_ENVIRONMENT[c].aws, with their values in this stack. */
  private capabilityEnvironment(capabilities: readonly Capability[]): Record<string, string> {
    const { settings } = this;
    const values: Record<Capability, Record<string, string>> = {
      jwt: { JWT_SECRET_SECRET_ARN: settings.jwtSecret.secretArn },
      mail: { MAIL_FROM: settings.mailFrom, MAIL_CONFIGURATION_SET: settings.mailConfigurationSet.nameForSending },
      appUrl: { APP_URL_PARAMETER: settings.appUrlParameterName },
      customerSecrets: { CUSTOMER_SECRETS_KEY_ID: settings.customerSecretsKey.keyArn },
      publish: { WS_CALLBACK_URL: this.realtimeStage?.callbackUrl ?? '' },
      twilio: {},
      companyDeletion: { COMPANY_DELETION_QUEUE_URL: settings.companyDeletionQueue.queueUrl },
      pictures: { PICTURE_BUCKET: settings.pictureBucket.bucketName },
    };
    return Object.assign({}, ...capabilities.map((c) => values[c]));
  }

  private logGroupFor(feature: string): logs.LogGroup {
    let group = this.logGroups.get(feature);
    if (!group) {
      group = new logs.LogGroup(this, `${pascal(feature)}Logs`, {
        retention: FUNCTION_LOG_RETENTION,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      this.logGroups.set(feature, group);
    }
    return group;
  }

  /** One role per declaration (kind, table access, capabilities, KMS operations): the same grants, written once. */
  private roleFor(route: FunctionRoute): iam.Role {
    const capabilities = [...route.capabilities].sort();
    const kms = [...(route.kms ?? [])].sort();
    const pictures = [...(route.pictures ?? [])].sort();
    const key = [
      // The authorizer's grants are health's and not-found's (logs, the origin secret): their role.
      route.kind === 'authorizer' ? 'http' : route.kind,
      ...(checksOriginSecret(route) && route.kind === 'socket' ? ['origin'] : []),
      `table-${route.table}`,
      ...capabilities,
      ...kms.map((op) => `kms-${op}`),
      ...pictures.map((op) => `pictures-${op}`),
    ].join('-');
    let role = this.roles.get(key);
    if (role) return role;
    // An own role instead of AWSLambdaBasicExecutionRole: logs may go to the app's log groups only.
    role = new iam.Role(this, `${pascal(key)}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Switchboard ${route.kind} functions with table access ${route.table} and: ${[...capabilities, ...kms.map((op) => `kms ${op}`), ...pictures.map((op) => `pictures ${op}`)].join(', ') || 'nothing else'}`,
    });
    this.roles.set(key, role);
    this.grantTable(role, route.table);
    if (checksOriginSecret(route)) this.grantSecretValue(role, this.settings.originSecret);
    for (const capability of capabilities) this.grant(role, capability, route);
    return role;
  }

  /**
   * GetSecretValue only (the Parameters and Secrets extension's one call, AWSPREVIOUS included), not
   * `grantRead`, which adds DescribeSecret that no function uses.
   */
  private grantSecretValue(role: iam.Role, secret: secretsmanager.ISecret): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
    );
  }

  private grant(role: iam.Role, capability: Capability, route: FunctionRoute): void {
    const { settings } = this;
    const stack = Stack.of(this);
    switch (capability) {
      case 'jwt':
        // AWSPREVIOUS too: the previous key verifies for one access-token lifetime after a rotation.
        this.grantSecretValue(role, settings.jwtSecret);
        return;
      case 'appUrl':
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
        return;
      case 'mail': {
        // SES authorises against every identity involved (sender domain or address, and recipients while
        // the account is in the sandbox), so the resource is any identity and the sender is pinned instead.
        // SESv2 SendEmail (functions/lib/mail.ts) is authorised as ses:SendEmail; no raw mail is sent.
        const identities = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
        // Sending with a configuration set is authorised against it too.
        const configurationSet = stack.formatArn({
          service: 'ses',
          resource: 'configuration-set',
          resourceName: settings.mailConfigurationSet.name,
        });
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: [identities, configurationSet],
            conditions: { StringEqualsIgnoreCase: { 'ses:FromAddress': settings.mailFrom } },
          }),
        );
        acknowledgeWildcardResource(
          role,
          identities,
          'SES checks the sending permission against the sender identity and, in the SES sandbox, the recipient identities, which are not known in advance; the ses:FromAddress condition limits sending to the MailFrom address.',
        );
        return;
      }
      case 'customerSecrets':
        // The operations the route declares (webhooks and voice tokens only decrypt), and only with a
        // company as encryption context, as secrets.ts always sends it.
        if (!route.kms?.length) throw new Error(`${route.handler}: customerSecrets needs its kms operations declared`);
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: route.kms.map((op) => KMS_ACTIONS[op]),
            resources: [settings.customerSecretsKey.keyArn],
            conditions: { Null: { 'kms:EncryptionContext:companyId': 'false' } },
          }),
        );
        return;
      case 'publish': {
        const stage = this.realtimeStage;
        if (!stage) throw new Error('Set realtimeStage before adding a function with the publish capability');
        stage.grantManagementApiAccess(role);
        acknowledgeWildcardResource(
          role,
          `${stack.formatArn({ service: 'execute-api', resource: stage.api.apiId })}/${stage.stageName}/*/@connections/*`,
          'Realtime pushes go to connection ids that exist only at run time; the grant is limited to the @connections management API of this one WebSocket stage.',
        );
        return;
      }
      case 'twilio':
        // Twilio is reached over the internet with the customer's own credentials: no AWS permission.
        return;
      case 'companyDeletion':
        settings.companyDeletionQueue.grantSendMessages(role);
        return;
      case 'pictures':
        if (!route.pictures?.length) throw new Error(`${route.handler}: pictures needs its operations declared`);
        for (const op of route.pictures) this.grantPictures(role, op);
        return;
    }
  }

  /**
   * A pictures-bucket operation (PICTURE_OPERATIONS) as S3 actions on its key prefixes only
   * (docs/security.md: Pictures). The URLs a function presigns carry its role's permission: an upload
   * URL can write under `unsent/` and nothing else, a read URL read a sent picture and nothing else.
   */
  private grantPictures(role: iam.Role, op: PictureOperation): void {
    const { pictureBucket: bucket } = this.settings;
    const unsent = bucket.arnForObjects(`${UNSENT_PREFIX}/*`);
    const sent = bucket.arnForObjects(`${SENT_PREFIX}/*`);
    const allow = (actions: string[], resources: string[], conditions?: Record<string, unknown>) =>
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources, conditions }));
    const reason =
      'Picture keys are <prefix>/<companyId>/<uploadId>, made at run time; the grant is limited to one prefix of the pictures bucket, and the code builds every key from the caller’s company.';
    switch (op) {
      case 'upload':
        allow(['s3:PutObject'], [unsent]);
        acknowledgeWildcardResource(role, unsent, reason);
        return;
      case 'send':
        // Reads an upload's type, size and first bytes, and copies it under `sent/` (CopyObject).
        allow(['s3:GetObject'], [unsent]);
        allow(['s3:PutObject'], [sent]);
        acknowledgeWildcardResource(role, unsent, reason);
        acknowledgeWildcardResource(role, sent, reason);
        return;
      case 'read':
        allow(['s3:GetObject'], [sent]);
        acknowledgeWildcardResource(role, sent, reason);
        return;
      case 'delete':
        allow(['s3:ListBucket'], [bucket.bucketArn], { StringLike: { 's3:prefix': [`${UNSENT_PREFIX}/*`, `${SENT_PREFIX}/*`] } });
        allow(['s3:DeleteObject'], [unsent, sent]);
        acknowledgeWildcardResource(role, unsent, reason);
        acknowledgeWildcardResource(role, sent, reason);
        return;
    }
  }

  /**
   * Item-level access to the table and its named indexes only (no `index/*` wildcard): the actions of
   * the route's declared access (TABLE_ACTIONS; none for `none`). No Scan: every list the app shows
   * is a Query (docs/architecture.md §4); only `sweep` (the company-deletion worker) scans.
   */
  private grantTable(role: iam.IRole, access: TableAccess): void {
    const { tableArn } = this.settings.table;
    if (TABLE_ACTIONS[access].length === 0) return;
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: TABLE_ACTIONS[access].map((action) => `dynamodb:${action}`),
        resources: [tableArn, ...this.settings.tableIndexNames.map((indexName) => `${tableArn}/index/${indexName}`)],
      }),
    );
  }
}

/** `team-inbox` → `TeamInbox`: construct ids from handler folders and names. */
export const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
