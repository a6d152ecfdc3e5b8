import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type App, aws_cloudfront as cloudfront, NestedStack, type Stack, Token } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  CAPABILITY_ENVIRONMENT,
  type Capability,
  DEFAULT_TIMEOUT_SECONDS,
  environmentFor,
  KMS_ACTIONS,
  TABLE_ACTIONS,
} from '../functions/lib/capabilities';
import { ORIGIN_SECRET_HEADER, SECRET_CACHE_TTL_SECONDS } from '../functions/lib/config';
import { TIME_USED_REPORTED_FROM_PERCENT } from '../functions/lib/metrics';
import { tableDefinition } from '../functions/lib/table';
import {
  answeredSocketRoutes,
  fallbackRoute,
  httpRoutes,
  MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS,
  NESTED_STACKS,
  originAuthorizer,
  queueConsumers,
  scheduledJobs,
  socketRoutes,
} from '../functions/routes';
import { MEMBER_REMOVAL_SWEEP_MINUTES, SOCKET_HEARTBEAT_MS } from '../shared/constants';
import * as accountEndpoints from '../shared/contract/endpoints/account';
import * as authEndpoints from '../shared/contract/endpoints/auth';
import { listContacts } from '../shared/contract/endpoints/contacts';
import { socketPath } from '../shared/contract/realtime-events';
import { TWILIO_WEBHOOKS } from '../shared/contract/route';
import { HASHED_ASSETS_DIR } from '../web/cache-control';
import { indexHtmlScriptHashes, TWILIO_VOICE } from '../web/content-security-policy';
import { AUTH_ROUTE_THROTTLE, HTTP_THROTTLE, SESSION_ROUTE_THROTTLE } from './constructs/http-api';
import { MAIL_EVENTS, MAIL_EVENTS_DIMENSION, REGIONS_WITHOUT_MAIL_CONFIGURATION } from './constructs/mail-configuration';
import {
  ALARMS,
  type AlarmName,
  DELETION_STEP_MAX_AGE,
  MAX_ALARM_METRICS,
  METRICS_NAMESPACE,
  ORIGIN_REFUSALS_METRIC,
  TABLE_OPERATIONS,
  TIME_USED_METRIC,
  WEBHOOK_FAILURES_METRIC,
} from './constructs/monitoring';
import { REALTIME_THROTTLE } from './constructs/realtime-api';
import { HTTP_FUNCTIONS_STACK, MAX_TEMPLATE_RESOURCES } from './constructs/route-stacks';
import { FUNCTION_MEMORY_MIB, HANDLER_TAG, PASSWORD_HASHING_MEMORY_MIB } from './constructs/switchboard-function';
import { WAF_AUTH_PATH_PREFIX, WAF_AUTH_RATE_LIMIT_DEFAULT, WAF_WEBHOOK_PATH_PREFIX } from './constructs/web-acl';
import { WS_PATH_REWRITE } from './constructs/web-hosting';
import { knownLayerArns, optInRegions } from './regions';
import { nestedTemplatesOf } from './resolve-template';
import {
  API_GATEWAY_LOGGING_ROLE_CONTEXT,
  PROJECT_ROOT,
  QUEUE_CONSUMER_MAX_CONCURRENCY,
  type SwitchboardStack,
} from './switchboard-stack';
import { annotationsOf, synth as synthOnce, type Variant } from './test-synth';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-infra-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A variant of the stack, synthesised once for this file and deploy.suite.ts (test-synth.ts), as one template. */
function synth(variant: Variant = {}) {
  const { app, stack } = synthOnce(variant);
  return { app, stack, template: withNestedStacks(stack) };
}

type TemplateJson = {
  Resources: Record<string, { Properties?: Record<string, unknown> }>;
  nested?: Record<string, TemplateJson>;
};

/**
 * The stack as one template: its resources and its nested stacks' (route-stacks.ts), each nested
 * parameter put back as the expression the parent passes, so a nested function's role, table and
 * secrets read as a parent function's do. Which stack holds what: the `stack size` and nested stack tests.
 */
function withNestedStacks(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON() as TemplateJson;
  const merge = (json: TemplateJson, nested: Record<string, TemplateJson>): TemplateJson['Resources'] => {
    const resources = { ...json.Resources };
    for (const [id, child] of Object.entries(nested)) {
      const passed = (json.Resources[id]?.Properties?.Parameters ?? {}) as Record<string, unknown>;
      const putBack = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(putBack);
        if (!node || typeof node !== 'object') return node;
        const ref = (node as { Ref?: unknown }).Ref;
        if (typeof ref === 'string' && Object.keys(node).length === 1 && ref in passed) return passed[ref];
        return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, putBack(value)]));
      };
      for (const [childId, resource] of Object.entries(merge(child, child.nested ?? {}))) {
        if (childId in resources) throw new Error(`${childId} is in the parent and in ${id}`);
        resources[childId] = putBack(resource) as TemplateJson['Resources'][string];
      }
    }
    return resources;
  };
  return Template.fromJSON({ ...parent, Resources: merge(parent, nestedTemplatesOf(stack) as Record<string, TemplateJson>) });
}

/** The stack's own template and each nested stack's, by construct path. */
function templatesOf(stack: Stack): Record<string, Template> {
  return Object.fromEntries(
    [stack, ...stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c))].map((s) => [
      s.node.path,
      Template.fromStack(s),
    ]),
  );
}

/** Unacknowledged AwsSolutions findings (errors and warnings), as `rule at path` lines. */
function nagFindings(app: App): string[] {
  return new AwsSolutionsChecks()
    .validateScope(app)
    .violations.flatMap((violation) =>
      violation.violatingResources.map(
        (resource) => `${violation.severity} ${violation.ruleName} at ${resource.constructPath}: ${violation.description}`,
      ),
    );
}

type Resource = { Properties: Record<string, unknown> };
type SecurityHeaders = {
  SecurityHeadersConfig?: { ContentSecurityPolicy?: { ContentSecurityPolicy: string; Override: boolean } };
};
const ref = (logicalId: string) => ({ Ref: logicalId });
/** A route's path with every parameter filled in. */
const fillPath = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');
const distributionConfig = (t: Template) =>
  (Object.values(t.findResources('AWS::CloudFront::Distribution'))[0] as Resource).Properties.DistributionConfig as Record<
    string,
    unknown
  >;

/** A function of the route table (the tag), not one the CDK adds for a custom resource. */
const routeFunction = (t: Template) =>
  (Object.values(t.findResources('AWS::Lambda::Function')) as Resource[]).find((fn) =>
    (fn.Properties.Tags as { Key: string }[] | undefined)?.some((tag) => tag.Key === HANDLER_TAG),
  ) as Resource;

/**
 * Every name of a CloudFront resource (policies, functions, origin access controls, key value
 * stores…), given at the top or in its `…Config`: CloudFront wants each unique in the account.
 */
function cloudFrontNames(t: Template): { resource: string; name: string }[] {
  const resources = t.toJSON().Resources as Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  return Object.entries(resources)
    .filter(([, resource]) => resource.Type.startsWith('AWS::CloudFront::'))
    .flatMap(([id, { Type, Properties = {} }]) =>
      [
        Properties,
        ...Object.entries(Properties)
          .filter(([key]) => key.endsWith('Config'))
          .map(([, config]) => config),
      ]
        .map((holder) => (holder as { Name?: unknown } | undefined)?.Name)
        .filter((name) => name !== undefined)
        .map((name) => ({ resource: `${Type} ${id}`, name: JSON.stringify(name) })),
    );
}

/** Whether a name carries the stack's name and region, as references or as the literals of a stack bound to a region. */
function isAccountWide(name: string, stack: SwitchboardStack): boolean {
  const withRegion = name.includes('{"Ref":"AWS::Region"}') || (!Token.isUnresolved(stack.region) && name.includes(stack.region));
  const withStack = name.includes('{"Ref":"AWS::StackName"}') || name.includes(stack.stackName);
  return withRegion && withStack;
}

const withoutWeb = synth();
const { template } = withoutWeb;
/** The stack with a built web app, as operators deploy it (docs/deploy.md: Deploy); synthesised once. */
function synthWithWeb() {
  // The same build as the web app upload's tests below, so the two share one synth.
  const dist = path.join(tmp, 'dist');
  fs.mkdirSync(path.join(dist, HASHED_ASSETS_DIR), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Switchboard</title>');
  fs.writeFileSync(path.join(dist, HASHED_ASSETS_DIR, 'index-a1b2c3d4.js'), 'export {};');
  return synth({ webDistPath: dist });
}

describe('table', () => {
  it('is the single table of tableDefinition, on demand, retained (deletion protection: deploy.suite.ts)', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      },
    });
  });
});

describe('functions', () => {
  const ours = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter((fn) =>
    (fn.Properties.Tags as { Key: string }[] | undefined)?.some((tag) => tag.Key === HANDLER_TAG),
  );
  const handlerOf = (fn: Resource) =>
    (fn.Properties.Tags as { Key: string; Value: string }[]).find((tag) => tag.Key === HANDLER_TAG)?.Value;
  const byHandler = new Map(ours.map((fn) => [handlerOf(fn), fn]));
  const variablesOf = (handler: string) => {
    const fn = byHandler.get(handler);
    if (!fn) throw new Error(`No function for ${handler}`);
    return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  };
  const httpHandlers = [...httpRoutes.map((route) => route.handler), fallbackRoute.handler, originAuthorizer.handler];
  const socketHandlers = socketRoutes.map((route) => route.handler);
  // The origin authorizer, and behind it every HTTP function and $connect (the upgrade request),
  // refuse requests without the origin secret.
  const checksOrigin = (handler: string) =>
    (!socketHandlers.includes(handler) && !queueHandlers.includes(handler)) || handler === 'realtime/connect';
  const queueHandlers = [...queueConsumers, ...scheduledJobs].map((consumer) => consumer.handler);
  const allEntries = [...httpRoutes, ...socketRoutes, ...queueConsumers, ...scheduledJobs, fallbackRoute, originAuthorizer];
  type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
  /** Every statement of the policies attached to a function's role. */
  const policyOf = (handler: string): Statement[] => {
    const [roleId] = ((byHandler.get(handler) as Resource).Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    return Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(JSON.stringify(ref(roleId))))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  };
  const secretRef = (id: string) => {
    const logicalId = Object.keys(template.findResources('AWS::SecretsManager::Secret')).find((key) => key.startsWith(id));
    return JSON.stringify(ref(logicalId as string));
  };

  it('are exactly one per route-table entry', () => {
    expect(ours).toHaveLength(httpRoutes.length + socketRoutes.length + queueConsumers.length + scheduledJobs.length + 2);
    expect([...byHandler.keys()].sort()).toEqual([...httpHandlers, ...socketHandlers, ...queueHandlers].sort());
  });

  it('run the bundled handler on Node.js 22, arm64, with the timeout of their route', () => {
    for (const entry of allEntries) {
      const fn = byHandler.get(entry.handler) as Resource;
      expect(fn.Properties, entry.handler).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: entry.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      });
      expect(fn.Properties.Layers).toHaveLength(1);
    }
  });

  it('give the routes that hash a password (sign-up, sign-in, accepting an invitation) its memory, every other function an ordinary route’s', () => {
    const memoryOf = (handler: string) => (byHandler.get(handler) as Resource).Properties.MemorySize;
    for (const entry of allEntries) {
      const expected = entry.hashesPasswords ? PASSWORD_HASHING_MEMORY_MIB : FUNCTION_MEMORY_MIB;
      expect(memoryOf(entry.handler), entry.handler).toBe(expected);
    }
    expect(memoryOf('auth/login')).toBe(PASSWORD_HASHING_MEMORY_MIB);
    // Auth routes that hash nothing are ordinary routes.
    for (const handler of ['auth/refresh', 'auth/me', 'auth/logout', 'auth/logout-all', 'auth/verify-email']) {
      expect(memoryOf(handler), handler).toBe(FUNCTION_MEMORY_MIB);
    }
  });

  it('get exactly the environment of their capabilities, the same variables the local gateway gives', () => {
    const base = ['TABLE_NAME', 'NODE_OPTIONS', 'PLATFORM_ADMIN_EMAILS'];
    // The extension's own settings. Secrets are cached by the function (config.ts), not a second time
    // by the extension, so a rotated secret reaches warm functions within that one cache time.
    const extension = /^(PARAMETERS_SECRETS_EXTENSION|SECRETS_MANAGER|SSM_PARAMETER_STORE)_/;
    for (const entry of allEntries) {
      const all = variablesOf(entry.handler);
      expect(all.SECRETS_MANAGER_TTL, entry.handler).toBe('0');
      expect(all.SSM_PARAMETER_STORE_TTL, entry.handler).toBe(String(SECRET_CACHE_TTL_SECONDS));
      const variables = Object.fromEntries(Object.entries(all).filter(([name]) => !extension.test(name)));
      const expected = [
        ...base,
        ...(checksOrigin(entry.handler) ? ['ORIGIN_SECRET_SECRET_ARN'] : []),
        ...entry.capabilities.flatMap((c) => CAPABILITY_ENVIRONMENT[c].aws),
      ];
      expect(Object.keys(variables).sort(), entry.handler).toEqual(expected.sort());
      // Locally: a variable of each capability and none of the others.
      const local = Object.fromEntries(CAPABILITIES.flatMap((c) => CAPABILITY_ENVIRONMENT[c].local.map((name) => [name, 'x'])));
      const granted = Object.keys(environmentFor(entry.capabilities, local)).sort();
      expect(granted, entry.handler).toEqual(entry.capabilities.flatMap((c) => CAPABILITY_ENVIRONMENT[c].local).sort());
    }
    expect(variablesOf('auth/register').MAIL_FROM).toEqual(ref('MailFrom'));
  });

  it('are granted exactly their capabilities (least privilege), KMS only with a company as encryption context', () => {
    for (const entry of allEntries) {
      const statements = JSON.stringify(policyOf(entry.handler));
      const has = (capability: Capability) => entry.capabilities.includes(capability);
      expect(statements.includes('ses:SendEmail'), `${entry.handler} mail`).toBe(has('mail'));
      expect(statements.includes('kms:Decrypt'), `${entry.handler} customerSecrets`).toBe(has('customerSecrets'));
      expect(statements.includes('execute-api:ManageConnections'), `${entry.handler} publish`).toBe(has('publish'));
      expect(statements.includes('ssm:GetParameter'), `${entry.handler} appUrl`).toBe(has('appUrl'));
      expect(statements.includes(secretRef('JwtSecret')), `${entry.handler} jwt`).toBe(has('jwt'));
      expect(statements.includes(secretRef('OriginSecret')), `${entry.handler} origin`).toBe(checksOrigin(entry.handler));
      expect(statements.includes('sqs:SendMessage'), `${entry.handler} companyDeletion`).toBe(has('companyDeletion'));
      expect(statements.includes('"s3:'), `${entry.handler} pictures`).toBe(has('pictures'));
    }
    const kms = policyOf('providers/connect-twilio').find((s) => JSON.stringify(s.Action).includes('kms:Decrypt'));
    expect(kms?.Condition).toEqual({ Null: { 'kms:EncryptionContext:companyId': 'false' } });
  });

  /** Every action a function's role allows. */
  const actionsOf = (handler: string) => policyOf(handler).flatMap((statement) => [statement.Action].flat());
  const tableActionsOf = (handler: string) => actionsOf(handler).filter((action) => action.startsWith('dynamodb:'));
  const TABLE_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

  it("grant each function exactly the table access and KMS operations of its route's declaration", () => {
    for (const entry of allEntries) {
      expect(tableActionsOf(entry.handler).sort(), `${entry.handler}, table: '${entry.table}'`).toEqual(
        TABLE_ACTIONS[entry.table].map((action) => `dynamodb:${action}`).sort(),
      );
      const kms = actionsOf(entry.handler).filter((action) => action.startsWith('kms:'));
      expect(kms.sort(), `${entry.handler}, kms`).toEqual((entry.kms ?? []).map((op) => KMS_ACTIONS[op]).sort());
      if (entry.table !== 'none') {
        const statement = policyOf(entry.handler).find((s) => JSON.stringify(s.Action).includes('dynamodb:'));
        // The table and its named indexes, nothing wider.
        expect(JSON.stringify(statement?.Resource), entry.handler).not.toContain('index/*');
      }
    }
  });

  it('give health and not-found no table write, webhooks and the voice token no encryption, nobody DescribeSecret or SendRawEmail', () => {
    for (const handler of ['system/health', 'system/not-found']) {
      for (const write of TABLE_WRITES) expect(tableActionsOf(handler), handler).not.toContain(write);
    }
    const decryptOnly = [...httpRoutes.filter((r) => r.contract.auth === 'twilio').map((r) => r.handler), 'voice/token'];
    expect(decryptOnly.length).toBeGreaterThan(5);
    for (const handler of decryptOnly) {
      expect(actionsOf(handler), handler).toContain('kms:Decrypt');
      expect(actionsOf(handler), handler).not.toContain('kms:Encrypt');
    }
    // Only storing new Twilio credentials encrypts.
    const encrypting = allEntries.filter((entry) => actionsOf(entry.handler).includes('kms:Encrypt')).map((e) => e.handler);
    expect(encrypting).toEqual(['providers/connect-twilio']);
    // Reads only: signed-in lists and views.
    for (const handler of ['auth/me', 'contacts/list', 'conversations/get', 'calls/list', 'users/list']) {
      for (const write of TABLE_WRITES) expect(tableActionsOf(handler), handler).not.toContain(write);
    }
    for (const entry of allEntries) {
      expect(actionsOf(entry.handler), entry.handler).not.toContain('secretsmanager:DescribeSecret');
      expect(actionsOf(entry.handler), entry.handler).not.toContain('ses:SendRawEmail');
    }
  });

  it('give the origin authorizer its log lines and the origin secret, nothing more', () => {
    const statements = policyOf(originAuthorizer.handler);
    expect(actionsOf(originAuthorizer.handler).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
    ]);
    const secret = statements.find((s) => JSON.stringify(s.Action).includes('secretsmanager:'));
    expect(JSON.stringify(secret?.Resource)).toBe(secretRef('OriginSecret'));
    // The role of the functions with the same grants, health and not-found, and of no other.
    const roleOf = (handler: string) => JSON.stringify((byHandler.get(handler) as Resource).Properties.Role);
    const sharing = allEntries.filter((entry) => roleOf(entry.handler) === roleOf(originAuthorizer.handler));
    expect(sharing.map((entry) => entry.handler).sort()).toEqual(
      ['system/health', fallbackRoute.handler, originAuthorizer.handler].sort(),
    );
  });
});

describe('pictures bucket (docs/security.md: Pictures)', () => {
  const [bucketId, bucket] = Object.entries(template.findResources('AWS::S3::Bucket') as Record<string, Resource>).find(([id]) =>
    id.startsWith('Pictures'),
  ) as [string, Resource];
  const functionsOf = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>);
  const roleOf = (handler: string) =>
    (
      (functionsOf.find((fn) => JSON.stringify(fn.Properties.Tags ?? []).includes(`"${handler}"`)) as Resource).Properties
        .Role as {
        'Fn::GetAtt': [string, string];
      }
    )['Fn::GetAtt'][0];
  /** The S3 statements of a function's role, each as its actions and the key prefixes (or the bucket) it names. */
  const s3Of = (handler: string) =>
    Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(JSON.stringify(ref(roleOf(handler)))))
      .flatMap(
        (policy) =>
          (policy.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement,
      )
      .filter((s) => JSON.stringify(s.Action).includes('s3:'))
      .map((s) => [
        [s.Action].flat().join(','),
        (JSON.stringify(s.Resource).match(/\/(unsent|sent)\/\*/g) ?? ['bucket']).sort().join(','),
      ]);

  it('is private: all public access blocked, TLS only, S3-managed encryption, no ACLs', () => {
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    const policy = Object.values(template.findResources('AWS::S3::BucketPolicy') as Record<string, Resource>).find((p) =>
      JSON.stringify(p.Properties.Bucket).includes(bucketId),
    );
    expect(JSON.stringify(policy?.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('lets browsers PUT and GET by signed URLs across origins, with Content-Type, and nothing else', () => {
    const rules = (bucket.Properties.CorsConfiguration as { CorsRules: Record<string, unknown>[] }).CorsRules;
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ AllowedMethods: ['PUT', 'GET'], AllowedHeaders: ['content-type'], AllowedOrigins: ['*'] });
  });

  it('removes uploads never sent after a day, by their prefix', () => {
    const rules = (bucket.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: 'unsent/', ExpirationInDays: 1, Status: 'Enabled' }));
    expect(JSON.stringify(rules)).not.toMatch(/"Prefix":"sent\/","ExpirationInDays"/);
  });

  it('grants each function only its operations, on their prefixes', () => {
    expect(s3Of('conversations/create-picture-upload')).toEqual([['s3:PutObject', '/unsent/*']]);
    for (const handler of ['conversations/send-message', 'conversations/start', 'conversations/retry-message']) {
      expect(s3Of(handler).sort(), handler).toEqual(
        [
          ['s3:GetObject', '/sent/*,/unsent/*'],
          ['s3:PutObject', '/sent/*'],
        ].sort(),
      );
    }
    expect(s3Of('conversations/message-media')).toEqual([['s3:GetObject', '/sent/*']]);
    expect(s3Of('jobs/company-deletion').sort()).toEqual(
      [
        ['s3:ListBucket', 'bucket'],
        ['s3:DeleteObject', '/sent/*,/unsent/*'],
      ].sort(),
    );
    expect(s3Of('conversations/get')).toEqual([]);
  });
});

describe('company deletion queue', () => {
  it('feeds the worker one step at a time, redelivers a failed step after the worker’s timeout, and keeps failures in a dead-letter queue', () => {
    const queues = template.findResources('AWS::SQS::Queue') as Record<string, Resource>;
    const [queueId, queue] = Object.entries(queues).find(([id]) => id.startsWith('CompanyDeletionQueue')) ?? [];
    const deadLetterId = Object.keys(queues).find((id) => id.startsWith('CompanyDeletionDeadLetters'));
    expect(queue?.Properties).toMatchObject({
      VisibilityTimeout: 6 * MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] }, maxReceiveCount: 5 },
    });
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>);
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toMatchObject({ BatchSize: 1, EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    // However many companies are being deleted, at most two steps (each may Scan for minutes) run at
    // once, the least SQS allows: the account's concurrency stays the routes'.
    expect(mappings[0]?.Properties.ScalingConfig).toEqual({ MaximumConcurrency: QUEUE_CONSUMER_MAX_CONCURRENCY });
    expect(QUEUE_CONSUMER_MAX_CONCURRENCY).toBe(2);
    // Only the worker may Scan the table.
    const scanners = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('dynamodb:Scan'),
    );
    expect(scanners).toHaveLength(1);
  });
});

describe('schedules (docs/product.md: Channel health, Removed members)', () => {
  /** The function of a scheduled job, by its handler, in `t`. */
  const jobFunction = (t: Template, handler: string) =>
    Object.entries(t.findResources('AWS::Lambda::Function') as Record<string, Resource>).find(([, fn]) =>
      (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.some(
        (tag) => tag.Key === HANDLER_TAG && tag.Value === handler,
      ),
    )?.[0];
  /** The rules that run a function, in `t`. */
  const rulesOf = (t: Template, functionId: string) =>
    Object.values(t.findResources('AWS::Events::Rule') as Record<string, Resource>).filter((rule) =>
      (rule.Properties.Targets as { Arn: unknown }[]).some(
        (target) => JSON.stringify(target.Arn) === JSON.stringify({ 'Fn::GetAtt': [functionId, 'Arn'] }),
      ),
    );

  it('run the channel health check hourly by default, its interval a stack parameter, with the interval as its input', () => {
    const json = template.toJSON();
    expect(json.Parameters.ChannelHealthIntervalMinutes).toMatchObject({ Type: 'Number', Default: 60, MinValue: 5 });
    const sweepId = jobFunction(template, 'jobs/channel-health-sweep') as string;
    expect(sweepId).toBeDefined();
    const rules = rulesOf(template, sweepId);
    expect(rules).toHaveLength(1);
    const rule = rules[0] as Resource;
    expect(JSON.stringify(rule.Properties.ScheduleExpression)).toContain('ChannelHealthIntervalMinutes');
    expect(rule.Properties.State).toBe('ENABLED');
    const [target] = rule.Properties.Targets as { Arn: unknown; Input: unknown }[];
    expect(JSON.stringify(target?.Input)).toContain('intervalMinutes');
  });

  it('finish unfinished member removals every few minutes, from the FeatureRoutes nested stack', () => {
    // Function, rule and invoke permission in the nested stack; the parent holds only its role.
    const nested = templatesOf(withoutWeb.stack)['Switchboard/FeatureRoutes'] as Template;
    const sweepId = jobFunction(nested, 'jobs/member-removal-sweep') as string;
    expect(sweepId).toBeDefined();
    const [rule, ...more] = rulesOf(nested, sweepId);
    expect(more).toEqual([]);
    expect(rule?.Properties).toMatchObject({
      ScheduleExpression: `rate(${MEMBER_REMOVAL_SWEEP_MINUTES} minutes)`,
      State: 'ENABLED',
    });
    expect(MEMBER_REMOVAL_SWEEP_MINUTES).toBeLessThanOrEqual(5);
    expect(jobFunction(templatesOf(withoutWeb.stack).Switchboard as Template, 'jobs/member-removal-sweep')).toBeUndefined();
  });

  it('let EventBridge invoke the scheduled jobs, and only them', () => {
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>).filter(
      (p) => p.Properties.Principal === 'events.amazonaws.com',
    );
    const jobs = ['jobs/channel-health-sweep', 'jobs/member-removal-sweep'].map((handler) => ({
      'Fn::GetAtt': [jobFunction(template, handler), 'Arn'],
    }));
    expect(permissions.map((p) => p.Properties.FunctionName)).toEqual(jobs);
    expect(scheduledJobs).toHaveLength(jobs.length);
  });
});

describe('stack size', () => {
  const stacks = templatesOf(withoutWeb.stack);
  // `npx cdk synth` adds an AWS::CDK::Metadata resource to each template, which the tests' synth has not.
  const sizeOf = (stackPath: string) => Object.keys((stacks[stackPath] as Template).toJSON().Resources).length + 1;

  it('holds every template, the parent’s and each nested stack’s, at 300 resources, with CloudFormation’s 500 as the margin', () => {
    expect(MAX_TEMPLATE_RESOURCES).toBe(300);
    // The parent, the functions of its HTTP routes, and the nested stack routes name in their entry.
    expect(Object.keys(stacks).sort()).toEqual([
      'Switchboard',
      'Switchboard/FeatureRoutes',
      `Switchboard/${HTTP_FUNCTIONS_STACK}`,
    ]);
    // A route adds its function, API route, integration and invoke permission; roles and log groups are
    // shared, and stay in the parent.
    const perRoute = [
      'AWS::Lambda::Function',
      'AWS::ApiGatewayV2::Route',
      'AWS::ApiGatewayV2::Integration',
      'AWS::Lambda::Permission',
    ];
    // Over every stack (`template` holds them all), less the one function (and role, policy, log
    // group) of the table's deletion protection (deploy.suite.ts).
    const routeBound = perRoute.reduce((sum, type) => sum + Object.keys(template.findResources(type)).length, 0) - 1;
    // An answered socket route (heartbeat) has an API route and a MOCK integration, and no function.
    const routes =
      httpRoutes.length + socketRoutes.length + answeredSocketRoutes.length + queueConsumers.length + scheduledJobs.length + 1;
    expect(routeBound / routes).toBeLessThanOrEqual(4);
    for (const stackPath of Object.keys(stacks)) expect(sizeOf(stackPath), stackPath).toBeLessThanOrEqual(MAX_TEMPLATE_RESOURCES);
    // CloudFormation's other limits a template: 200 parameters, 200 outputs.
    for (const [stackPath, t] of Object.entries(stacks)) {
      const { Parameters = {}, Outputs = {} } = t.toJSON() as { Parameters?: object; Outputs?: object };
      expect(Object.keys(Parameters).length, stackPath).toBeLessThanOrEqual(200);
      expect(Object.keys(Outputs).length, stackPath).toBeLessThanOrEqual(200);
    }
  });

  it('leaves the features filed the room stated in docs/architecture.md: Stack sizes', () => {
    // FeatureRoutes takes every new HTTP route, 4 resources each: the features still filed add about 42
    // (the day-one basics' 8 are in), with room to spare.
    expect(Math.floor((MAX_TEMPLATE_RESOURCES - sizeOf('Switchboard/FeatureRoutes')) / 4)).toBeGreaterThanOrEqual(50);
    // The parent takes what is shared: a new role (and its policy) for a new set of declarations, a
    // queue consumer's or a schedule's function, a new handler folder's log group. Pictures out took 8
    // (the bucket, its policy, and three new sets of declarations).
    // Call recording took 2: the call status webhook starts recordings, a new set of declarations.
    expect(MAX_TEMPLATE_RESOURCES - sizeOf('Switchboard')).toBeGreaterThanOrEqual(14);
    // The main stack takes no new route (a new entry names its `stack`): its 63 are those deployed there first.
    expect(httpRoutes.filter((route) => !route.stack)).toHaveLength(63);
    // HttpFunctions takes no new route: it holds the functions of the routes deployed in the parent.
    expect(sizeOf(`Switchboard/${HTTP_FUNCTIONS_STACK}`)).toBe(2 * (httpRoutes.filter((r) => !r.stack).length + 1) + 1);
  });
});

describe('nested stacks of HTTP routes (route-stacks.ts)', () => {
  const stacks = templatesOf(withoutWeb.stack);
  const parent = stacks.Switchboard as Template;
  const routeKey = (route: (typeof httpRoutes)[number]) => `${route.contract.method} ${route.contract.path}`;
  const parentRefOf = (nestedStack: NestedStack) => {
    const id = withoutWeb.stack.resolve((nestedStack.nestedStackResource as { logicalId: string }).logicalId) as string;
    const passed = (parent.toJSON().Resources[id].Properties.Parameters ?? {}) as Record<string, unknown>;
    /** What a nested `{ Ref: parameter }` is in the parent. */
    return (value: unknown) => {
      const name = (value as { Ref?: string } | undefined)?.Ref;
      return name !== undefined && name in passed ? passed[name] : value;
    };
  };
  const nestedStacks = withoutWeb.stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c));
  const nestedStackNamed = (name: string) => nestedStacks.find((n) => n.node.id === name) as NestedStack;
  const httpApiId = Object.keys(
    parent.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'HTTP' } }),
  )[0] as string;
  const tableId = Object.keys(parent.findResources('AWS::DynamoDB::Table'))[0] as string;

  /** The function's role (with the grants of the route's entry), table and log group: the parent's. */
  const expectParentsGrants = (fn: Resource, route: (typeof httpRoutes)[number], inParent: (value: unknown) => unknown) => {
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(inParent(variables.TABLE_NAME)).toEqual({ 'Fn::If': ['CreatesTable', ref(tableId), ref('ExistingTableName')] });
    const role = inParent(fn.Properties.Role) as { 'Fn::GetAtt': [string, string] };
    expect(parent.toJSON().Resources[role['Fn::GetAtt'][0]].Type).toBe('AWS::IAM::Role');
    const statements = Object.values(parent.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(JSON.stringify(ref(role['Fn::GetAtt'][0]))))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement);
    expect(
      statements
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => action.startsWith('dynamodb:'))
        .sort(),
      route.handler,
    ).toEqual(TABLE_ACTIONS[route.table].map((action) => `dynamodb:${action}`).sort());
    const logGroup = inParent((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup) as { Ref: string };
    expect(parent.toJSON().Resources[logGroup.Ref].Type).toBe('AWS::Logs::LogGroup');
    return logGroup.Ref;
  };

  /** API Gateway may invoke the function for this route of the parent's API only; the permission is beside it. */
  const expectInvokePermission = (
    nested: Template,
    functionId: string,
    route: (typeof httpRoutes)[number],
    inParent: (value: unknown) => unknown,
  ) => {
    const permissions = Object.values(
      nested.findResources('AWS::Lambda::Permission', { Properties: { FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] } } }),
    ) as Resource[];
    expect(permissions, route.handler).toHaveLength(1);
    const permission = permissions[0] as Resource;
    expect(permission.Properties.Principal).toBe('apigateway.amazonaws.com');
    const [, parts] = (permission.Properties.SourceArn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    expect(parts.map(inParent)).toContainEqual(ref(httpApiId));
    expect(JSON.stringify(permission.Properties.SourceArn)).toContain(`/*/*${route.contract.path}`);
  };

  it('are placed by the route table: an entry’s `stack` names the nested stack its route deploys in, whatever its handler’s folder', () => {
    expect(NESTED_STACKS).toEqual(['FeatureRoutes']);
    const placed = httpRoutes.filter((route) => route.stack === 'FeatureRoutes');
    // The team inbox’s, media’s, the contact timeline's, a new conversation's and account self-service's
    // routes, their handlers in their features' folders.
    expect(placed.map((route) => route.handler).sort()).toEqual(
      [
        'auth/change-password',
        'auth/forgot-password',
        'auth/rename-company',
        'auth/reset-password',
        'auth/update-profile',
        'calls/pause-recording',
        'calls/recording-audio',
        'calls/hold',
        'calls/voicemail-audio',
        'inboxes/set-recording',
        'contacts/timeline',
        'conversations/add-note',
        'conversations/assign',
        'conversations/create-picture-upload',
        'conversations/mark-read',
        'conversations/message-media',
        'conversations/sending-numbers',
        'conversations/start',
        'conversations/unread',
        'webhooks/recording-status',
        'webhooks/voicemail-recorded',
      ].sort(),
    );
    // Folders hold routes of both stacks: the folder decides nothing.
    const folderOf = (route: (typeof httpRoutes)[number]) => route.handler.split('/')[0];
    for (const folder of new Set(placed.map(folderOf))) {
      expect(
        httpRoutes.some((route) => folderOf(route) === folder && !route.stack),
        folder,
      ).toBe(true);
    }
    const nested = stacks[nestedStackNamed('FeatureRoutes').node.path] as Template;
    const nestedKeys = Object.values(nested.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>).map(
      (route) => route.Properties.RouteKey,
    );
    expect(nestedKeys.sort()).toEqual(placed.map(routeKey).sort());
  });

  it('hold the whole routes that name FeatureRoutes, each with the authorizer, its integration and invoke permission', () => {
    const featureRoutes = httpRoutes.filter((route) => route.stack === 'FeatureRoutes');
    const nestedStack = nestedStackNamed('FeatureRoutes');
    const nested = stacks[nestedStack.node.path] as Template;
    const inParent = parentRefOf(nestedStack);
    const authorizerId = Object.keys(
      parent.findResources('AWS::ApiGatewayV2::Authorizer', { Properties: { ApiId: ref(httpApiId) } }),
    )[0];
    const nestedJson = nested.toJSON().Resources as Record<string, Resource & { Type: string }>;
    const functions = nested.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    for (const route of featureRoutes) {
      const [, apiRoute] = Object.entries(
        nested.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey(route) } }),
      )[0] as [string, Resource];
      // On the parent's HTTP API, behind the parent's authorizer.
      expect(inParent(apiRoute.Properties.ApiId)).toEqual(ref(httpApiId));
      expect(apiRoute.Properties.AuthorizationType).toBe('CUSTOM');
      expect(inParent(apiRoute.Properties.AuthorizerId)).toEqual(ref(authorizerId as string));
      // Its Lambda proxy integration, in the nested stack, runs the route's function there.
      const integrationId = (apiRoute.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] })['Fn::Join'][1][1]
        .Ref;
      const integration = nestedJson[integrationId] as Resource & { Type: string };
      expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      const [functionId] = (integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      const fn = functions[functionId] as Resource;
      expect(fn.Properties.Tags).toContainEqual({ Key: HANDLER_TAG, Value: route.handler });
      expectInvokePermission(nested, functionId, route, inParent);
      // The log group it was first deployed with (TeamInboxLogs, MediaLogs), not its folder's; a route new in this
      // stack, its folder's (the contact timeline: ContactsLogs; a new conversation: ConversationsLogs; account self-service: AuthLogs).
      const logGroup = expectParentsGrants(fn, route, inParent);
      const folder = (route.handler.split('/')[0] as string).replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase());
      const group = route.logGroup === 'media' ? 'Media' : route.logGroup === 'team-inbox' ? 'TeamInbox' : folder;
      expect(logGroup, route.handler).toMatch(new RegExp(`^Functions${group}Logs`));
    }
    // None of them in the parent, and nothing else in the nested stack.
    const parentKeys = Object.values(parent.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>).map(
      (route) => route.Properties.RouteKey,
    );
    for (const route of featureRoutes) expect(parentKeys).not.toContain(routeKey(route));
    // Beside them, the scheduled jobs that name the stack, each with its rule.
    expect([...new Set(Object.values(nestedJson).map((resource) => resource.Type))].sort()).toEqual(
      [
        'AWS::ApiGatewayV2::Integration',
        'AWS::ApiGatewayV2::Route',
        'AWS::Lambda::Function',
        'AWS::Lambda::Permission',
        'AWS::Events::Rule',
      ].sort(),
    );
    const nestedJobs = scheduledJobs.filter((job) => job.stack === 'FeatureRoutes');
    expect(Object.keys(nested.findResources('AWS::Events::Rule'))).toHaveLength(nestedJobs.length);
    expect(Object.keys(functions)).toHaveLength(featureRoutes.length + nestedJobs.length);
  });

  it('leave the API routes and integrations of every other route in the parent, where they were deployed, their functions in HttpFunctions', () => {
    const others = httpRoutes.filter((route) => !route.stack);
    expect(others.length).toBeGreaterThan(60);
    const nestedStack = nestedStackNamed(HTTP_FUNCTIONS_STACK);
    const nested = stacks[nestedStack.node.path] as Template;
    const inParent = parentRefOf(nestedStack);
    const nestedStackId = withoutWeb.stack.resolve((nestedStack.nestedStackResource as { logicalId: string }).logicalId);
    const outputs = (nested.toJSON().Outputs ?? {}) as Record<string, { Value: unknown }>;
    const functions = nested.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    const parentJson = parent.toJSON().Resources as Record<string, Resource & { Type: string }>;
    for (const route of others) {
      const found = Object.values(
        parent.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey(route) } }),
      ) as Resource[];
      expect(found, route.handler).toHaveLength(1);
      const apiRoute = found[0] as Resource;
      const integrationId = (apiRoute.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] })['Fn::Join'][1][1]
        .Ref;
      const integration = parentJson[integrationId] as Resource & { Type: string };
      expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
      // The integration runs the function HttpFunctions puts out.
      const [stackId, output] = (integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      expect(stackId).toBe(nestedStackId);
      const exported = outputs[output.replace(/^Outputs\./, '')] as { Value: { 'Fn::GetAtt': [string, string] } };
      const [functionId] = exported.Value['Fn::GetAtt'];
      const fn = functions[functionId] as Resource;
      expect(fn.Properties.Tags).toContainEqual({ Key: HANDLER_TAG, Value: route.handler });
      expectInvokePermission(nested, functionId, route, inParent);
      expectParentsGrants(fn, route, inParent);
    }
    // No route there: only functions and their permissions.
    expect(
      [...new Set(Object.values(nested.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type))].sort(),
    ).toEqual(['AWS::Lambda::Function', 'AWS::Lambda::Permission']);
  });

  it('are validated by CloudFormation Validate as the parent is, with acknowledgements of their own', () => {
    const report = JSON.parse(fs.readFileSync(path.join(withoutWeb.app.outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: {
        pluginName: string;
        violations: unknown[];
        suppressedViolations?: { acknowledgedAt: string; violatingConstructs: { constructPath: string }[] }[];
      }[];
    };
    const validate = report.pluginReports.find((r) => r.pluginName === 'CloudFormation Validate');
    expect(validate?.violations).toEqual([]);
    // The nested templates' findings are there, acknowledged on their stack (W2509: ARNs passed in as parameters).
    for (const nestedStack of nestedStacks) {
      const own = (validate?.suppressedViolations ?? []).filter((v) =>
        v.violatingConstructs.some((c) => c.constructPath.startsWith(nestedStack.node.path)),
      );
      expect(own.length, nestedStack.node.path).toBeGreaterThan(0);
      for (const finding of own) expect(finding.acknowledgedAt).toBe(nestedStack.node.path);
    }
  });
});

describe('secrets', () => {
  it('keep customer secrets under a rotating, retained KMS key and generate the token signing key', () => {
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'RetainExceptOnCreate', Properties: { EnableKeyRotation: true } });
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
    });
    template.hasResourceProperties('AWS::SSM::Parameter', { Name: '/Switchboard/app-url', Type: 'String' });
  });
});

describe('APIs', () => {
  it('route every HTTP route-table entry, and everything else to the not-found function', () => {
    const httpApiId = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'HTTP' } }));
    expect(httpApiId).toHaveLength(1);
    const routeKeys = Object.values(
      template.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: ref(httpApiId[0] as string) } }) as Record<
        string,
        Resource
      >,
    ).map((route) => route.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(
      [...httpRoutes.map((route) => `${route.contract.method} ${route.contract.path}`), '$default'].sort(),
    );
  });

  it('route the WebSocket routes and log both stages', () => {
    const wsApiId = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }));
    expect(wsApiId).toHaveLength(1);
    const routeKeys = Object.values(
      template.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: ref(wsApiId[0] as string) } }) as Record<
        string,
        Resource
      >,
    ).map((route) => route.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(
      [...socketRoutes.map((route) => route.contract.routeKey), ...answeredSocketRoutes.map((route) => route.routeKey)].sort(),
    );
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: ref(wsApiId[0] as string),
      StageName: 'ws',
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('connectionId') },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('routeKey') },
      DefaultRouteSettings: { ThrottlingRateLimit: HTTP_THROTTLE.rateLimit, ThrottlingBurstLimit: HTTP_THROTTLE.burstLimit },
    });
  });
});

describe('CloudFront', () => {
  const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution') as Record<string, Resource>)[0];
  const config = distribution?.Properties.DistributionConfig as {
    CacheBehaviors: { PathPattern: string; TargetOriginId: string }[];
    Origins: { Id: string; DomainName: unknown }[];
    DefaultCacheBehavior: { FunctionAssociations?: unknown[] };
    CustomErrorResponses?: unknown;
  };
  const originOf = (pattern: string) => {
    const behavior = config.CacheBehaviors.find((b) => b.PathPattern === pattern);
    return JSON.stringify(config.Origins.find((origin) => origin.Id === behavior?.TargetOriginId)?.DomainName);
  };

  it('sends /api/* and /webhooks/* to the HTTP API and /ws to the WebSocket API', () => {
    expect(config.CacheBehaviors.map((b) => b.PathPattern).sort()).toEqual(['/api/*', '/webhooks/*', '/ws', '/ws/*']);
    expect(originOf('/api/*')).toMatch(/"HttpApi[0-9A-F]+"/);
    expect(originOf('/webhooks/*')).toBe(originOf('/api/*'));
    expect(originOf('/ws')).toMatch(/"RealtimeApi[0-9A-F]+"/);
    expect(originOf('/ws/*')).toBe(originOf('/ws'));
  });

  it('names every CloudFront resource with the stack name and region, which CloudFront wants unique in the account', () => {
    const names = cloudFrontNames(template);
    // The response-headers policy, the origin request policy, the origin access control, two functions.
    expect(new Set(names.map(({ resource }) => resource.split(' ')[0])).size).toBeGreaterThanOrEqual(4);
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const { resource, name } of names) expect(isAccountWide(name, withoutWeb.stack), `${resource}: ${name}`).toBe(true);
  });

  it('waits for the API past a route’s limit and the authorizer before it, and for the socket’s handshake, within every account’s quota', () => {
    type CustomOrigin = { Id: string; CustomOriginConfig?: { OriginReadTimeout?: number; OriginKeepaliveTimeout?: number } };
    const originFor = (pattern: string) => {
      const behavior = config.CacheBehaviors.find((b) => b.PathPattern === pattern);
      return (config.Origins as CustomOrigin[]).find((origin) => origin.Id === behavior?.TargetOriginId)?.CustomOriginConfig;
    };
    // "Response timeout per origin" and "Keep-alive timeout per origin": 60 s in older accounts; a
    // distribution above the account's quota fails to create.
    const quotaSeconds = 60;
    const longestRoute = Math.max(...httpRoutes.map((route) => route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS));
    const authorizer = originAuthorizer.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    for (const pattern of ['/api/*', '/webhooks/*']) {
      const { OriginReadTimeout = 30 } = originFor(pattern) ?? {};
      // A cold start on top: CloudFront's own HTML 504 must never replace the app's JSON answer.
      expect(OriginReadTimeout, pattern).toBeGreaterThanOrEqual(longestRoute + authorizer + 5);
      expect(OriginReadTimeout, pattern).toBeLessThanOrEqual(quotaSeconds);
    }
    const connect = socketRoutes.find((route) => route.contract.routeKey === '$connect');
    for (const pattern of ['/ws', '/ws/*']) {
      const { OriginReadTimeout = 30, OriginKeepaliveTimeout = 5 } = originFor(pattern) ?? {};
      expect(OriginReadTimeout, pattern).toBeGreaterThanOrEqual(
        (connect?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) + authorizer,
      );
      expect(OriginReadTimeout, pattern).toBeLessThanOrEqual(quotaSeconds);
      expect(OriginKeepaliveTimeout, pattern).toBeLessThanOrEqual(quotaSeconds);
    }
    // An open socket is closed after 10 minutes without a byte (CloudFront's WebSocket idle limit): the
    // heartbeat keeps well inside it, a hidden tab's (about once a minute) too.
    expect(Math.max(SOCKET_HEARTBEAT_MS / 1000, 60)).toBeLessThan(600 / 2);
  });

  it('passes Twilio webhooks through uncached, with every query string and header (X-Twilio-Signature) but the host', () => {
    const webhooks = (
      config.CacheBehaviors as { PathPattern: string; CachePolicyId?: string; OriginRequestPolicyId?: string }[]
    ).find((b) => b.PathPattern === '/webhooks/*');
    expect(webhooks?.CachePolicyId).toBe(cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(webhooks?.OriginRequestPolicyId).toBe(
      cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    );
    for (const route of httpRoutes.filter((r) => r.contract.auth === 'twilio'))
      expect(route.contract.path.startsWith(`${TWILIO_WEBHOOKS}/`), route.contract.path).toBe(true);
  });

  it('serves the SPA with a Content-Security-Policy: own scripts (inline ones by hash), the app origin and Twilio voice', () => {
    const policies = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy')) as Resource[];
    const csp = policies
      .map((p) => (p.Properties.ResponseHeadersPolicyConfig as SecurityHeaders).SecurityHeadersConfig?.ContentSecurityPolicy)
      .find(Boolean);
    expect(csp?.Override).toBe(true);
    // The bucket's domain is known at deployment only: the policy is a join, its attribute in braces here.
    const joined = csp?.ContentSecurityPolicy as string | { 'Fn::Join': [string, unknown[]] } | undefined;
    const policy =
      typeof joined === 'object'
        ? joined['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : `{${JSON.stringify(part)}}`)).join('')
        : (joined ?? '');
    const directives = Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['script-src']).toEqual(["'self'", ...indexHtmlScriptHashes().map((h) => `'${h}'`)]);
    expect(directives['script-src']).toHaveLength(2);
    // The pictures bucket: the browser uploads a text's pictures there and reads sent ones back.
    expect(directives['connect-src']).toEqual([
      "'self'",
      expect.stringMatching(/^https:\/\/\{\{"Fn::GetAtt":\["Pictures\w+","RegionalDomainName"\]\}\}$/),
      ...TWILIO_VOICE.connect,
    ]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect((config.DefaultCacheBehavior as { ResponseHeadersPolicyId?: unknown }).ResponseHeadersPolicyId).toEqual({
      Ref: expect.stringMatching(/SpaResponseHeaders/),
    });
  });

  it('routes the socket path /ws/company/{companyId} to the stage, the company going along as a query parameter', () => {
    const rewrite = new Function(`${WS_PATH_REWRITE}; return handler;`)() as (event: unknown) => {
      uri: string;
      querystring: Record<string, { value: string }>;
    };
    const request = (uri: string, querystring: Record<string, { value: string }>) => ({ request: { uri, querystring } });
    expect(rewrite(request(socketPath('c-1'), { ticket: { value: 't' }, companyId: { value: 'other' } }))).toEqual({
      uri: '/ws',
      querystring: { ticket: { value: 't' }, companyId: { value: 'c-1' } },
    });
    expect(rewrite(request('/ws', { ticket: { value: 't' } }))).toEqual({ uri: '/ws', querystring: { ticket: { value: 't' } } });
    // A deeper path is no company's socket path: it passes unchanged.
    expect(rewrite(request('/ws/company/a/b', {})).uri).toBe('/ws/company/a/b');
    const realtimeBehavior = (config.CacheBehaviors as { PathPattern: string; FunctionAssociations?: unknown[] }[]).find(
      (b) => b.PathPattern === '/ws/*',
    );
    expect(realtimeBehavior?.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
  });

  it('rewrites SPA routes with a viewer-request function, not with error responses that would hide API 404s', () => {
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    expect(config.CustomErrorResponses).toBeUndefined();
  });
});

describe('outputs', () => {
  it('tell the operator where the app, the webhooks, the APIs and the table are', () => {
    for (const name of ['AppUrl', 'HealthUrl', 'TwilioWebhookBaseUrl', 'HttpApiUrl', 'WebSocketUrl', 'TableName']) {
      template.hasOutput(name, {});
    }
    expect(JSON.stringify(template.findOutputs('TwilioWebhookBaseUrl'))).toContain(TWILIO_WEBHOOKS);
  });
});

describe('web app upload', () => {
  it('is skipped, with a warning, while web/dist is not built', () => {
    template.resourceCountIs('Custom::CDKBucketDeployment', 0);
    annotationsOf(withoutWeb.stack).hasWarning('/Switchboard/Web', Match.stringLikeRegexp('npm run build:web'));
  });

  const dist = path.join(tmp, 'dist');
  fs.mkdirSync(path.join(dist, HASHED_ASSETS_DIR), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Switchboard</title>');
  fs.writeFileSync(path.join(dist, HASHED_ASSETS_DIR, 'index-a1b2c3d4.js'), 'export {};');
  const withWeb = synth({ webDistPath: dist });
  const deployments = withWeb.template.findResources('Custom::CDKBucketDeployment') as Record<
    string,
    Resource & { DependsOn?: string[] }
  >;
  const deploymentOf = (filter: string) =>
    Object.entries(deployments).find(([, d]) => JSON.stringify(d.Properties.Exclude) === JSON.stringify([filter])) ?? [];

  it('uploads web/dist when it exists', () => {
    withWeb.template.resourceCountIs('Custom::CDKBucketDeployment', 2);
    expect(nagFindings(withWeb.app)).toEqual([]);
  });

  it('keeps every hashed file of earlier releases, cached a year, and asks for index.html every time (docs/deploy.md: Releases and open tabs)', () => {
    const [assetsId, assets] = deploymentOf('*');
    const [, pages] = deploymentOf(`${HASHED_ASSETS_DIR}/*`);
    // The hashed folder alone, never pruned: an open tab of the release before still finds its chunks.
    expect(assets?.Properties).toMatchObject({
      Include: [`${HASHED_ASSETS_DIR}/*`],
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    expect(assets?.Properties.DistributionId).toBeUndefined();
    // Everything else, index.html first of all: revalidated on every visit, invalidated at the edge.
    expect(pages?.Properties).toMatchObject({
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionPaths: ['/*'],
    });
    expect(pages?.Properties.Include).toBeUndefined();
    // index.html goes up only once the chunks it names are there.
    expect(pages?.DependsOn).toEqual(expect.arrayContaining([assetsId]));
  });
});

describe('origin authorizer (docs/security.md: Direct calls to the API endpoints)', () => {
  const apiId = (protocol: 'HTTP' | 'WEBSOCKET') =>
    Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: protocol } }))[0] as string;
  const authorizersOf = (protocol: 'HTTP' | 'WEBSOCKET') =>
    Object.entries(
      template.findResources('AWS::ApiGatewayV2::Authorizer', { Properties: { ApiId: ref(apiId(protocol)) } }) as Record<
        string,
        Resource
      >,
    );
  const routesOf = (protocol: 'HTTP' | 'WEBSOCKET') =>
    Object.values(
      template.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: ref(apiId(protocol)) } }) as Record<
        string,
        Resource
      >,
    );
  const authorizerFunction = Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).find(
    ([, fn]) =>
      (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.some(
        (tag) => tag.Key === HANDLER_TAG && tag.Value === originAuthorizer.handler,
      ),
  )?.[0] as string;

  it('guards every HTTP route, $default too, with one cached REQUEST authorizer on the origin-secret header', () => {
    const authorizers = authorizersOf('HTTP');
    expect(authorizers).toHaveLength(1);
    const [id, authorizer] = authorizers[0] as [string, Resource];
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      IdentitySource: [`$request.header.${ORIGIN_SECRET_HEADER}`],
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: originAuthorizer.resultTtlSeconds,
    });
    // Cached, within API Gateway's hour.
    expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBeGreaterThan(0);
    expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBeLessThanOrEqual(3600);
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(authorizerFunction);

    const routes = routesOf('HTTP');
    expect(routes).toHaveLength(httpRoutes.length + 1);
    for (const route of routes) {
      expect(route.Properties, String(route.Properties.RouteKey)).toMatchObject({
        AuthorizationType: 'CUSTOM',
        AuthorizerId: ref(id),
      });
    }
  });

  it('answers heartbeats in API Gateway itself: a MOCK integration renders heartbeat_ack, no function runs', () => {
    const wsApiId = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }));
    const [[routeId, route]] = Object.entries(
      template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: 'heartbeat' } }) as Record<string, Resource>,
    ) as [[string, Resource]];
    expect(route.Properties).toMatchObject({ ApiId: ref(wsApiId[0] as string), RouteResponseSelectionExpression: '$default' });
    const integrationId = (route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] })['Fn::Join'][1][1].Ref;
    expect(template.toJSON().Resources[integrationId].Properties).toMatchObject({
      IntegrationType: 'MOCK',
      RequestTemplates: { '200': '{"statusCode": 200}' },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::IntegrationResponse', {
      IntegrationId: ref(integrationId),
      IntegrationResponseKey: '/200/',
      ResponseTemplates: { '200': Match.stringLikeRegexp('"type":"heartbeat_ack"') },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::RouteResponse', { RouteId: ref(routeId), RouteResponseKey: '$default' });
  });

  it('takes quiet heartbeats in API Gateway one-way: a MOCK integration, nothing sent back', () => {
    const [[routeId, route]] = Object.entries(
      template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: 'quiet_heartbeat' } }) as Record<
        string,
        Resource
      >,
    ) as [[string, Resource]];
    expect(route.Properties.RouteResponseSelectionExpression).toBeUndefined();
    const integrationId = (route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] })['Fn::Join'][1][1].Ref;
    expect(template.toJSON().Resources[integrationId].Properties).toMatchObject({ IntegrationType: 'MOCK' });
    expect(template.findResources('AWS::ApiGatewayV2::RouteResponse', { Properties: { RouteId: ref(routeId) } })).toEqual({});
    expect(
      template.findResources('AWS::ApiGatewayV2::IntegrationResponse', { Properties: { IntegrationId: ref(integrationId) } }),
    ).toEqual({});
  });

  it('guards the WebSocket API’s $connect with the same function on the same header', () => {
    const authorizers = authorizersOf('WEBSOCKET');
    expect(authorizers).toHaveLength(1);
    const [id, authorizer] = authorizers[0] as [string, Resource];
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      IdentitySource: [`route.request.header.${ORIGIN_SECRET_HEADER}`],
    });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(authorizerFunction);
    const byKey = Object.fromEntries(routesOf('WEBSOCKET').map((route) => [route.Properties.RouteKey, route.Properties]));
    expect(byKey.$connect).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: ref(id) });
    // API Gateway allows a WebSocket authorizer on $connect only; the others come on an admitted socket.
    for (const key of ['$default', '$disconnect']) expect(byKey[key]?.AuthorizerId, key).toBeUndefined();
  });

  it('names the header CloudFront sends to both API origins', () => {
    const origins = (distributionConfig(template) as { Origins: { OriginCustomHeaders?: { HeaderName: string }[] }[] }).Origins;
    const sent = origins.flatMap((origin) => (origin.OriginCustomHeaders ?? []).map((h) => h.HeaderName.toLowerCase()));
    expect(sent).toEqual([ORIGIN_SECRET_HEADER, ORIGIN_SECRET_HEADER]);
    for (const [, authorizer] of [...authorizersOf('HTTP'), ...authorizersOf('WEBSOCKET')]) {
      const [source] = authorizer.Properties.IdentitySource as string[];
      expect(source?.split('.').pop()?.toLowerCase()).toBe(ORIGIN_SECRET_HEADER);
    }
  });

  it('may be invoked by API Gateway for these two APIs’ authorizers only', () => {
    const permissions = Object.values(
      template.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: { 'Fn::GetAtt': [authorizerFunction, 'Arn'] } },
      }) as Record<string, Resource>,
    );
    expect(permissions).toHaveLength(2);
    for (const permission of permissions) {
      expect(permission.Properties.Principal).toBe('apigateway.amazonaws.com');
      expect(JSON.stringify(permission.Properties.SourceArn)).toMatch(/\/authorizers\//);
    }
    const sources = JSON.stringify(permissions.map((p) => p.Properties.SourceArn));
    expect(sources).toContain(JSON.stringify(ref(apiId('HTTP'))));
    expect(sources).toContain(JSON.stringify(ref(apiId('WEBSOCKET'))));
  });
});

describe('origin verification and throttling', () => {
  it('has CloudFront send the generated origin secret to both APIs', () => {
    const origins = (
      distributionConfig(template) as { Origins: { Id: string; CustomOriginConfig?: unknown; OriginCustomHeaders?: unknown }[] }
    ).Origins.filter((origin) => origin.CustomOriginConfig);
    expect(origins).toHaveLength(2);
    for (const origin of origins) {
      expect(origin.OriginCustomHeaders).toEqual([
        {
          HeaderName: ORIGIN_SECRET_HEADER,
          // Pinned to a version (deploy.suite.ts: origin secret rotation).
          HeaderValue: {
            'Fn::Join': [
              '',
              ['{{resolve:secretsmanager:', expect.anything(), ':SecretString:::', ref('OriginSecretVersion'), '}}'],
            ],
          },
        },
      ]);
    }
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 48 }),
    });
  });

  it('gives the public auth routes their own, lower limits than the stage; refresh and sign-out larger ones', () => {
    const stage = Object.values(
      template.findResources('AWS::ApiGatewayV2::Stage', { Properties: { StageName: '$default' } }),
    )[0] as Resource;
    const routeKey = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;
    // Forgot and reset password are auth routes too, whose contracts sit with the account's (shared/contract/account.ts).
    const authRoutes = [...Object.values(authEndpoints), ...Object.values(accountEndpoints)].filter(
      (endpoint) => endpoint.auth === 'public',
    );
    expect(authRoutes.length).toBeGreaterThan(3);
    const settings = stage.Properties.RouteSettings as Record<string, unknown>;
    expect(Object.keys(settings).sort()).toEqual(authRoutes.map(routeKey).sort());
    const limit = (throttle: { rateLimit: number; burstLimit: number }) => ({
      ThrottlingRateLimit: throttle.rateLimit,
      ThrottlingBurstLimit: throttle.burstLimit,
    });
    // A flood of junk refreshes no longer uses up the limit every signed-in tab refreshes through.
    const sessionRoutes = [authEndpoints.refresh, authEndpoints.logout].map(routeKey);
    for (const [route, value] of Object.entries(settings)) {
      expect(value, route).toEqual(limit(sessionRoutes.includes(route) ? SESSION_ROUTE_THROTTLE : AUTH_ROUTE_THROTTLE));
    }
    expect(settings[routeKey(authEndpoints.login)]).toEqual(limit(AUTH_ROUTE_THROTTLE));
    expect(AUTH_ROUTE_THROTTLE.rateLimit).toBeLessThan(SESSION_ROUTE_THROTTLE.rateLimit);
    expect(SESSION_ROUTE_THROTTLE.rateLimit).toBeLessThan(HTTP_THROTTLE.rateLimit);
  });

  it('throttles the HTTP stage and the WebSocket stage (docs/security.md: Rate limits)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: HTTP_THROTTLE.rateLimit, ThrottlingBurstLimit: HTTP_THROTTLE.burstLimit },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'ws',
      DefaultRouteSettings: {
        ThrottlingRateLimit: REALTIME_THROTTLE.rateLimit,
        ThrottlingBurstLimit: REALTIME_THROTTLE.burstLimit,
      },
    });
  });

  it('adds WAF rate-based rules only when the WafRateLimit parameter is set, in us-east-1 only', () => {
    const json = template.toJSON();
    expect(json.Parameters.WafRateLimit).toMatchObject({ Type: 'Number', Default: 0 });
    expect(json.Parameters.WafAuthRateLimit).toMatchObject({
      Type: 'Number',
      Default: WAF_AUTH_RATE_LIMIT_DEFAULT,
      MinValue: 10,
    });
    template.hasResource('AWS::WAFv2::WebACL', {
      Condition: 'WafEnabled',
      Properties: Match.objectLike({ Scope: 'CLOUDFRONT' }),
    });
    expect(JSON.stringify(json.Rules.WafInUsEast1)).toContain('us-east-1');
    expect(JSON.stringify(distributionConfig(template).WebACLId)).toContain('WafEnabled');
  });

  describe('WAF rules', () => {
    type WafStatement = {
      ByteMatchStatement?: { FieldToMatch: { UriPath?: object }; PositionalConstraint: string; SearchString: string };
      NotStatement?: { Statement: WafStatement };
    };
    type WafRule = {
      Name: string;
      Action: object;
      Statement: { RateBasedStatement: { Limit: unknown; AggregateKeyType: string; ScopeDownStatement?: WafStatement } };
    };
    const rules = (Object.values(template.findResources('AWS::WAFv2::WebACL'))[0] as Resource).Properties.Rules as WafRule[];
    /** Whether WAF would count a request for this path in a rule (its scope-down statement, as WAF evaluates it). */
    const matches = (statement: WafStatement | undefined, path: string): boolean => {
      if (!statement) return true;
      if (statement.NotStatement) return !matches(statement.NotStatement.Statement, path);
      const byteMatch = statement.ByteMatchStatement;
      if (byteMatch?.FieldToMatch.UriPath && byteMatch.PositionalConstraint === 'STARTS_WITH') {
        return decodeURIComponent(path)
          .replace(/\/{2,}/g, '/')
          .startsWith(byteMatch.SearchString);
      }
      throw new Error(`A statement this test cannot evaluate: ${JSON.stringify(statement)}`);
    };
    /** The limits that count a request for this path: the parameters of the rules it falls under. */
    const limitsFor = (path: string) =>
      rules
        .filter((rule) => matches(rule.Statement.RateBasedStatement.ScopeDownStatement, path))
        .map((rule) => (rule.Statement.RateBasedStatement.Limit as { Ref: string }).Ref)
        .sort();

    it('block per client address, every rule', () => {
      expect(rules).toHaveLength(2);
      for (const rule of rules) {
        expect(rule.Action, rule.Name).toEqual({ Block: {} });
        expect(rule.Statement.RateBasedStatement.AggregateKeyType, rule.Name).toBe('IP');
      }
    });

    it('count every auth route against WafAuthRateLimit as well as WafRateLimit', () => {
      // Sign-up, sign-in, refresh, verification and sign-out: where guessing and floods aim.
      const authRoutes = httpRoutes.filter((r) => r.contract.path.startsWith(WAF_AUTH_PATH_PREFIX));
      expect(authRoutes.map((r) => r.handler)).toEqual(
        expect.arrayContaining(['auth/register', 'auth/login', 'auth/refresh', 'auth/resend-verification', 'auth/verify-email']),
      );
      for (const route of authRoutes) {
        expect(limitsFor(route.contract.path), route.contract.path).toEqual(['WafAuthRateLimit', 'WafRateLimit']);
      }
      // An encoded or doubled path reaches the same route; WAF decodes and normalises before comparing.
      const { path: login } = authEndpoints.login;
      expect(limitsFor(login.replace('/auth/', '/%61uth/'))).toEqual(['WafAuthRateLimit', 'WafRateLimit']);
      expect(limitsFor(`/${login}`)).toEqual(['WafAuthRateLimit', 'WafRateLimit']);
    });

    it('leave every Twilio webhook out of the per-address rules, and count every other route in the generic one', () => {
      for (const route of httpRoutes) {
        const path = fillPath(route.contract.path);
        if (route.contract.auth === 'twilio') {
          expect(route.contract.path.startsWith(WAF_WEBHOOK_PATH_PREFIX), path).toBe(true);
          expect(limitsFor(path), path).toEqual([]);
        } else {
          expect(limitsFor(path), path).toContain('WafRateLimit');
        }
      }
      expect(limitsFor('/')).toEqual(['WafRateLimit']);
      expect(limitsFor(listContacts.path)).toEqual(['WafRateLimit']);
    });

    it('compare decoded, normalised paths', () => {
      const paths = JSON.stringify(rules.map((rule) => rule.Statement.RateBasedStatement.ScopeDownStatement));
      expect(paths).toContain('"Type":"URL_DECODE"');
      expect(paths).toContain('"Type":"NORMALIZE_PATH"');
    });
  });
});

describe("the account's API Gateway logging role", () => {
  it('is left alone by default and set only when asked for (cdk.json may give a boolean; the CLI: deploy.suite.ts)', () => {
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    const withRole = synth({ context: { [API_GATEWAY_LOGGING_ROLE_CONTEXT]: true } });
    withRole.template.hasResource('AWS::ApiGateway::Account', { DeletionPolicy: 'RetainExceptOnCreate' });
  });
});

describe('operations (docs/operations.md: Alarms and logs)', () => {
  const resources = template.toJSON().Resources as Record<string, Resource & { Condition?: string }>;
  const logicalIdOf = (type: string, props: Record<string, unknown> = {}) => {
    const ids = Object.keys(template.findResources(type, { Properties: props }));
    expect(ids, type).toHaveLength(1);
    return ids[0] as string;
  };
  const topicId = logicalIdOf('AWS::SNS::Topic');
  const tableId = logicalIdOf('AWS::DynamoDB::Table');
  // The table the stack made, or the one ExistingTableName adopts (docs/deploy.md: Restoring the table).
  const tableNameValue = { 'Fn::If': ['CreatesTable', ref(tableId), { Ref: 'ExistingTableName' }] };
  const httpApiId = logicalIdOf('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
  const wsApiId = logicalIdOf('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET' });
  const alarmsById = template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>;
  const alarm = (name: AlarmName) => {
    const found = Object.entries(alarmsById).filter(([id]) => new RegExp(`^Monitoring${name}[0-9A-F]{8}$`).test(id));
    expect(found, name).toHaveLength(1);
    return (found[0] as [string, Resource])[1].Properties;
  };
  type MetricStat = { Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] } };
  /** The metrics a metric-math alarm adds up (Id → metric), and its expression. */
  const mathOf = (name: AlarmName) => {
    const queries = alarm(name).Metrics as { Id: string; Expression?: string; MetricStat?: MetricStat }[];
    const expression = queries.find((q) => q.Expression)?.Expression ?? '';
    const metrics = queries.filter((q) => q.MetricStat).map((q) => ({ id: q.Id, ...(q.MetricStat as MetricStat).Metric }));
    return { expression, metrics };
  };

  it('send every alarm to one topic, mailed to AlarmEmail only when that parameter is set', () => {
    template.hasParameter('AlarmEmail', { Type: 'String', Default: '' });
    expect(template.toJSON().Conditions.HasAlarmEmail).toEqual({
      'Fn::Not': [{ 'Fn::Equals': [ref('AlarmEmail'), ''] }],
    });
    const subscriptions = Object.values(template.findResources('AWS::SNS::Subscription'));
    expect(subscriptions).toEqual([
      expect.objectContaining({
        Condition: 'HasAlarmEmail',
        Properties: { Protocol: 'email', Endpoint: ref('AlarmEmail'), TopicArn: ref(topicId) },
      }),
    ]);
    // Publishers must use TLS; CloudWatch may publish for this account's alarms of this stack. The
    // policy replaces the topic's default one, so without the Allow no alarm reaches anyone.
    const policies = Object.values(template.findResources('AWS::SNS::TopicPolicy')) as Resource[];
    expect(policies).toHaveLength(1);
    const policy = (policies[0] as Resource).Properties;
    expect(policy.Topics).toEqual([ref(topicId)]);
    const statements = (policy.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const allows = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allows).toEqual([
      expect.objectContaining({
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: ref(topicId),
        Condition: {
          StringEquals: { 'aws:SourceAccount': ref('AWS::AccountId') },
          ArnLike: {
            'aws:SourceArn': {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  ref('AWS::Partition'),
                  ':cloudwatch:',
                  ref('AWS::Region'),
                  ':',
                  ref('AWS::AccountId'),
                  ':alarm:Switchboard-*',
                ],
              ],
            },
          },
        },
      }),
    ]);
    expect(Object.keys(alarmsById)).toHaveLength(Object.keys(ALARMS).length);
    for (const name of Object.keys(ALARMS) as AlarmName[]) {
      expect(alarm(name), name).toMatchObject({
        AlarmActions: [ref(topicId)],
        OKActions: [ref(topicId)],
        Threshold: ALARMS[name].threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmDescription: expect.stringContaining('Alarms and logs'),
      });
    }
  });

  it('alarm on errors and throttles of this stack’s functions no API answers for, and on the HTTP API’s 5xx', () => {
    const functionIds = Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>)
      .filter(([, fn]) =>
        (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.some(
          (tag) =>
            tag.Key === HANDLER_TAG &&
            [...queueConsumers, ...scheduledJobs, originAuthorizer].some((entry) => entry.handler === tag.Value),
        ),
      )
      .map(([id]) => id);
    expect(functionIds).toHaveLength(queueConsumers.length + scheduledJobs.length + 1);
    for (const [name, metricName] of [
      ['FunctionErrors', 'Errors'],
      ['FunctionThrottles', 'Throttles'],
    ] as const) {
      const { expression, metrics } = mathOf(name);
      // Each of them once, by its name (a nested stack's function through that stack's output), and no
      // function of the region outside the stack.
      const named = metrics.map((m) => {
        const [dimension] = m.Dimensions ?? [];
        expect(dimension?.Name, name).toBe('FunctionName');
        const value = dimension?.Value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
        return value.Ref ?? functionIds.find((id) => value['Fn::GetAtt']?.[1].includes(id.replace(/[0-9A-F]{8}$/, '')));
      });
      expect(named.sort(), name).toEqual([...functionIds].sort());
      for (const m of metrics) expect(m, name).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: metricName });
      expect(expression, name).toBe(metrics.map((m) => m.id).join(' + '));
      expect(metrics.length).toBeLessThanOrEqual(MAX_ALARM_METRICS);
    }
    // Every other function answers an API: its failures and throttles are the API's errors.
    expect([...httpRoutes, ...socketRoutes].length + queueConsumers.length + scheduledJobs.length + 2).toBe(
      Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter((fn) =>
        (fn.Properties.Tags as { Key: string }[] | undefined)?.some((tag) => tag.Key === HANDLER_TAG),
      ).length,
    );
    expect(alarm('HttpServerErrors')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: ref(httpApiId) }],
      Statistic: 'Sum',
    });
  });

  it('alarm when a route or webhook used most of its function’s time, as the functions report it', () => {
    expect(alarm('FunctionTimeNearLimit')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: TIME_USED_METRIC,
      Statistic: 'Maximum',
      Threshold: ALARMS.FunctionTimeNearLimit.threshold,
    });
    // Reported from half the time on (functions/lib/metrics.ts), so the alarm sees every invocation past its threshold.
    expect(TIME_USED_REPORTED_FROM_PERCENT).toBeLessThan(ALARMS.FunctionTimeNearLimit.threshold);
  });

  it('alarm on the table’s transaction conflicts', () => {
    expect(alarm('TableTransactionConflicts')).toMatchObject({
      Namespace: 'AWS/DynamoDB',
      MetricName: 'TransactionConflict',
      Dimensions: [{ Name: 'TableName', Value: tableNameValue }],
      Statistic: 'Sum',
    });
  });

  it('count requests the origin authorizer refused from the HTTP access log, and alarm on a spike of them', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: '{ ($.status = "403") && ($.error = "Forbidden") }',
      MetricTransformations: [
        { MetricNamespace: METRICS_NAMESPACE, MetricName: ORIGIN_REFUSALS_METRIC, MetricValue: '1', DefaultValue: 0 },
      ],
    });
    expect(alarm('OriginRefusals')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: ORIGIN_REFUSALS_METRIC,
      Statistic: 'Sum',
    });
  });

  it('count webhook requests answered 4xx/5xx from the HTTP access log, and alarm on them', () => {
    const accessLogGroup = (
      (
        Object.values(
          template.findResources('AWS::ApiGatewayV2::Stage', { Properties: { StageName: '$default' } }),
        )[0] as Resource
      ).Properties.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': [string, string] } }
    ).DestinationArn['Fn::GetAtt'][0];
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: ref(accessLogGroup),
      FilterPattern: '{ ($.path = "/webhooks/*") && (($.status = "4*") || ($.status = "5*")) }',
      MetricTransformations: [
        { MetricNamespace: METRICS_NAMESPACE, MetricName: WEBHOOK_FAILURES_METRIC, MetricValue: '1', DefaultValue: 0 },
      ],
    });
    expect(alarm('WebhookFailures')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: WEBHOOK_FAILURES_METRIC,
      Statistic: 'Sum',
    });
  });

  it('alarm on DynamoDB throttles of the table and each index, and on its system errors', () => {
    const throttles = mathOf('TableThrottles');
    const expected = [undefined, ...tableDefinition.globalSecondaryIndexes.map((index) => index.indexName)].flatMap((index) =>
      ['ReadThrottleEvents', 'WriteThrottleEvents'].map((metricName) => ({
        metricName,
        dimensions: [
          { Name: 'TableName', Value: tableNameValue },
          ...(index ? [{ Name: 'GlobalSecondaryIndexName', Value: index }] : []),
        ],
      })),
    );
    const named = (m: { metricName: string; dimensions?: { Name: string; Value: unknown }[] }) =>
      `${m.metricName} ${JSON.stringify([...(m.dimensions ?? [])].sort((a, b) => a.Name.localeCompare(b.Name)))}`;
    expect(throttles.metrics.map((m) => named({ metricName: m.MetricName, dimensions: m.Dimensions })).sort()).toEqual(
      expected.map(named).sort(),
    );
    expect(throttles.metrics).toHaveLength(expected.length);
    expect(throttles.expression).toBe(throttles.metrics.map((m) => m.id).join(' + '));

    const systemErrors = mathOf('TableSystemErrors');
    expect(systemErrors.metrics.map((m) => m.Dimensions?.find((d) => d.Name === 'Operation')?.Value).sort()).toEqual(
      [...TABLE_OPERATIONS].sort(),
    );
    for (const m of systemErrors.metrics) {
      expect(m).toMatchObject({ Namespace: 'AWS/DynamoDB', MetricName: 'SystemErrors' });
      expect(m.Dimensions).toContainEqual({ Name: 'TableName', Value: tableNameValue });
    }
    expect(systemErrors.expression).toBe(systemErrors.metrics.map((m) => m.id).join(' + '));
    // CloudWatch takes at most 10 metrics in one alarm.
    expect(Math.max(throttles.metrics.length, systemErrors.metrics.length)).toBeLessThanOrEqual(10);
  });

  it('alarm on WebSocket integration errors and on the SES bounce and complaint rates', () => {
    expect(alarm('RealtimeIntegrationErrors')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'IntegrationError',
      Dimensions: expect.arrayContaining([
        { Name: 'ApiId', Value: ref(wsApiId) },
        { Name: 'Stage', Value: 'ws' },
      ]),
    });
    expect(alarm('MailBounceRate')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Statistic: 'Maximum',
    });
    expect(alarm('MailComplaintRate')).toMatchObject({ Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate' });
    // Below the rates SES reviews an account at (5 % and 0.1 %).
    expect(ALARMS.MailBounceRate.threshold).toBeLessThan(0.05);
    expect(ALARMS.MailComplaintRate.threshold).toBeLessThan(0.001);
  });

  it('alarm when a background job waits in a dead-letter queue, or its next step has waited an hour on its queue', () => {
    const stuck = mathOf('BackgroundJobsFailed');
    const queues = template.findResources('AWS::SQS::Queue') as Record<string, Resource>;
    const redriven = Object.entries(queues).filter(([, queue]) => queue.Properties.RedrivePolicy);
    const deadLetterQueueIds = redriven.map(
      ([, queue]) =>
        (queue.Properties.RedrivePolicy as { deadLetterTargetArn: { 'Fn::GetAtt': [string, string] } }).deadLetterTargetArn[
          'Fn::GetAtt'
        ][0],
    );
    expect(deadLetterQueueIds.length).toBeGreaterThan(0);
    const queueName = (id: string) => [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }];
    const waiting = stuck.metrics.filter((m) => m.MetricName === 'ApproximateNumberOfMessagesVisible');
    const oldest = stuck.metrics.filter((m) => m.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(waiting.map((m) => m.Dimensions)).toEqual(deadLetterQueueIds.map(queueName));
    expect(oldest.map((m) => m.Dimensions)).toEqual(redriven.map(([id]) => queueName(id)));
    expect(stuck.metrics).toHaveLength(waiting.length + oldest.length);
    for (const m of stuck.metrics) expect(m.Namespace).toBe('AWS/SQS');
    expect(stuck.expression).toBe(
      `IF(${[...waiting.map((m) => `${m.id} >= 1`), ...oldest.map((m) => `${m.id} >= ${DELETION_STEP_MAX_AGE.toSeconds()}`)].join(' OR ')}, 1, 0)`,
    );
    expect(DELETION_STEP_MAX_AGE.toSeconds()).toBeGreaterThan(MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS);
  });

  it('show every alarm and the same metrics on a dashboard', () => {
    const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify((dashboards[0] as Resource).Properties.DashboardBody);
    for (const id of Object.keys(alarmsById)) expect(body).toContain(id);
    for (const metric of [
      'Errors',
      'Throttles',
      '5xx',
      WEBHOOK_FAILURES_METRIC,
      'ReadThrottleEvents',
      'SystemErrors',
      'IntegrationError',
      'Reputation.BounceRate',
      'Reputation.ComplaintRate',
      'Bounce',
      'Complaint',
    ]) {
      expect(body, metric).toContain(`\\"${metric}\\"`);
    }
  });

  it('record the app’s mail in an SES configuration set with reputation metrics, which every mailing function sends with', () => {
    const setId = logicalIdOf('AWS::SES::ConfigurationSet');
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      Name: 'Switchboard-mail',
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
    });
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: ref(setId),
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: [...MAIL_EVENTS],
        CloudWatchDestination: {
          DimensionConfigurations: [
            {
              DimensionName: MAIL_EVENTS_DIMENSION,
              DimensionValueSource: 'messageTag',
              DefaultDimensionValue: 'Switchboard-mail',
            },
          ],
        },
      },
    });
    // Only where the region's CloudFormation has configuration sets; elsewhere the functions send without one.
    const condition = resources[setId]?.Condition as string;
    expect(JSON.stringify(template.toJSON().Conditions[condition])).toContain('ap-southeast-4');
    const mailing = [...httpRoutes, ...socketRoutes].filter((route) => route.capabilities.includes('mail'));
    expect(mailing.length).toBeGreaterThan(0);
    const mailingFunctions = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter(
      (fn) => (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.MAIL_FROM,
    );
    expect(mailingFunctions).toHaveLength(mailing.length);
    for (const fn of mailingFunctions) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.MAIL_CONFIGURATION_SET).toEqual({
        'Fn::If': [condition, 'Switchboard-mail', ''],
      });
    }
    // Sending with a configuration set is authorised against it as well as against the identity.
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain(':configuration-set/Switchboard-mail');
  });

  it('log every function in Lambda’s JSON format, to its feature’s log group', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter((fn) =>
      (fn.Properties.Tags as { Key: string }[] | undefined)?.some((tag) => tag.Key === HANDLER_TAG),
    );
    expect(functions).toHaveLength(httpRoutes.length + socketRoutes.length + queueConsumers.length + scheduledJobs.length + 2);
    for (const fn of functions) {
      expect(fn.Properties.LoggingConfig).toEqual({ LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } });
    }
  });

  it('put the Lambda request id in the access log line of both APIs', () => {
    for (const stage of Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as Resource[]) {
      const format = JSON.parse((stage.Properties.AccessLogSettings as { Format: string }).Format);
      expect(format).toMatchObject({ requestId: '$context.requestId', lambdaRequestId: '$context.integration.requestId' });
    }
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 2);
  });
});

describe('regions', () => {
  it('take the extension layer from a region map, with the ExtensionLayerArn parameter where the map has none', () => {
    const json = template.toJSON();
    expect(json.Transform).toContain('AWS::LanguageExtensions');
    const layers = JSON.stringify(routeFunction(template).Properties.Layers);
    expect(layers).toContain('Fn::FindInMap');
    expect(layers).toContain('{"DefaultValue":{"Ref":"ExtensionLayerArn"}}');
    expect(JSON.stringify(json.Rules.LayerArnGiven)).toContain('ExtensionLayerArn');
    expect(JSON.stringify(distributionConfig(template).Logging)).toContain('CloudFrontLogsDelivered');
  });

  // A mapped region, and opt-in regions the map lacks (where CloudFront cannot deliver logs either).
  it.each(['us-east-1', 'eu-central-2', 'ap-southeast-4', 'af-south-1', 'me-central-1'])('synthesise for %s', (region) => {
    const regional = synth({ region });
    const layer = JSON.stringify(routeFunction(regional.template).Properties.Layers);
    const known = knownLayerArns()[region];
    if (known) expect(layer).toBe(JSON.stringify([known]));
    else {
      expect(layer).toBe(JSON.stringify([ref('ExtensionLayerArn')]));
      expect(regional.template.toJSON().Rules).toHaveProperty('LayerArnGiven');
    }
    const logging = distributionConfig(regional.template).Logging;
    if (optInRegions().includes(region)) expect(logging).toBeUndefined();
    else expect(logging).toMatchObject({ Prefix: 'cloudfront/' });
    // Account-wide names carry the stack name and region, so a second region in one account does not collide.
    for (const { resource, name } of cloudFrontNames(regional.template)) {
      expect(isAccountWide(name, regional.stack), `${resource}: ${name}`).toBe(true);
    }
    // SES configuration sets only where the region's CloudFormation has them (mail-configuration.ts).
    regional.template.resourceCountIs('AWS::SES::ConfigurationSet', REGIONS_WITHOUT_MAIL_CONFIGURATION.includes(region) ? 0 : 1);
    expect(nagFindings(regional.app)).toEqual([]);
  });
});

describe('the documents’ numbers that follow from the code', () => {
  const doc = (name: string) => fs.readFileSync(path.join(PROJECT_ROOT, 'docs', name), 'utf8');
  /** Resources of each template as `npx cdk synth` writes it (with its AWS::CDK::Metadata). */
  const sizesOf = (stack: Stack) =>
    Object.fromEntries(
      Object.entries(templatesOf(stack)).map(([stackPath, t]) => [stackPath, Object.keys(t.toJSON().Resources).length + 1]),
    );

  it('gives each template’s resources as operators deploy it, with its room (docs/architecture.md: Stack sizes)', () => {
    // The web app built; the logging role's two resources counted from the variant that has them.
    const deployed = sizesOf(synthWithWeb().stack);
    const withRole = sizesOf(synth({ context: { [API_GATEWAY_LOGGING_ROLE_CONTEXT]: true } }).stack);
    const roleAdds = (withRole.Switchboard as number) - (sizesOf(withoutWeb.stack).Switchboard as number);
    expect(roleAdds).toBe(2);
    const table = doc('architecture.md');
    const row = (name: string) => table.match(new RegExp(`^\\| \`${name}\`[^|]*\\| ([^|]+) \\| ([^|]+) \\|`, 'm'));
    const parent = row('Switchboard');
    expect(parent?.[1]?.trim()).toBe(
      `${deployed.Switchboard}; ${(deployed.Switchboard as number) + roleAdds} with the logging role`,
    );
    expect(parent?.[2]?.trim()).toBe(String(MAX_TEMPLATE_RESOURCES - (deployed.Switchboard as number) - roleAdds));
    for (const nested of [HTTP_FUNCTIONS_STACK, 'FeatureRoutes']) {
      const found = row(nested);
      expect(found?.[1]?.trim(), nested).toBe(String(deployed[`Switchboard/${nested}`]));
      expect(found?.[2]?.trim().split(',')[0], nested).toBe(
        String(MAX_TEMPLATE_RESOURCES - (deployed[`Switchboard/${nested}`] as number)),
      );
    }
  });

  it('gives the number of regions whose extension layer the stack knows (docs/deploy.md: Choose the region)', () => {
    const regions = Object.keys(knownLayerArns());
    expect(doc('deploy.md')).toContain(`The stack knows it for ${regions.length} regions`);
    // Osaka has no arm64 layer in aws-cdk-lib's facts: the document names it among those that need the parameter.
    expect(regions).not.toContain('ap-northeast-3');
  });

  it('gives the alarms, the metrics they watch and what they cost (docs/operations.md: Cost)', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    // A metric-math alarm is billed for each metric it reads.
    const metrics = alarms.reduce(
      (sum, a) =>
        sum + ((a.Properties.Metrics as { MetricStat?: unknown }[] | undefined)?.filter((m) => m.MetricStat).length ?? 1),
      0,
    );
    const custom = Object.keys(template.findResources('AWS::Logs::MetricFilter')).length + 1; // + FunctionTimeUsed
    /** A price as the table writes it, as a pattern. */
    const money = (dollars: number) => `\\$${dollars.toFixed(2).replace('.', '\\.')}`;
    const text = doc('operations.md');
    expect(text).toContain(`${alarms.length} alarms over ${metrics} metrics ($0.10 a metric;`);
    expect(text).toMatch(new RegExp(`${alarms.length} alarms over ${metrics} metrics [^|]*\\| ${money(metrics * 0.1)} \\|`));
    expect(text).toContain(`CloudWatch custom metrics: ${custom} (`);
    expect(text).toMatch(new RegExp(`CloudWatch custom metrics: ${custom} [^|]*\\| ${money(custom * 0.3)} \\|`));
    // The fixed cost of a deployment (README.md: Running it in AWS): the KMS key, two secrets, the alarms, the custom metrics, the dashboard.
    const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(
      new RegExp(
        `${alarms.length} alarms, ${custom} custom metrics, the dashboard \\| ${money(1 + 0.8 + metrics * 0.1 + custom * 0.3 + 3)} `,
      ),
    );
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('has no unacknowledged error or warning', () => {
    expect(nagFindings(withoutWeb.app)).toEqual([]);
  });
});

// In this file's process, so the variants both synthesise are synthesised once (test-synth.ts).
describe('deploy (deploy.suite.ts)', async () => {
  await import('./deploy.suite');
});
