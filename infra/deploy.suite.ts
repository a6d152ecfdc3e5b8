import * as fs from 'node:fs';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '../functions/lib/config';
import { tableDefinition } from '../functions/lib/table';
import { fallbackRoute, httpRoutes, scheduledJobs } from '../functions/routes';
import { HANDLER_TAG } from './constructs/switchboard-function';
import { nestedTemplatesOf, type Resolved, resolveTemplate } from './resolve-template';
import {
  API_GATEWAY_LOGGING_ROLE_CHECK,
  API_GATEWAY_LOGGING_ROLE_CONTEXT,
  API_GATEWAY_LOGGING_ROLE_WARNING,
  PROJECT_ROOT,
} from './switchboard-stack';
import { annotationsOf, synth } from './test-synth';

/**
 * What an operator's first deploy, custom domain, secret rotation, web ACL and restore get from the
 * template (docs/deploy.md), for the parameters and context as the CDK CLI passes them (`-c`
 * values are strings). Run by switchboard-stack.test.ts, in its process, so that the stack it
 * synthesises there serves these tests too (test-synth.ts).
 */

const plain = synth();
const json = plain.template.toJSON();
// The nested stacks of HTTP routes (route-stacks.ts): resolved with what the parent passes them.
const nested = nestedTemplatesOf(plain.stack);
const MAIL_FROM = { MailFrom: 'no-reply@example.com' };
const deployWith = (values: Record<string, string> = {}, pseudo: Record<string, string> = {}) =>
  resolveTemplate(json, { ...MAIL_FROM, ...values }, pseudo, nested);
const logicalIdOf = (type: string) => {
  const ids = Object.keys(plain.template.findResources(type));
  expect(ids, type).toHaveLength(1);
  return ids[0] as string;
};
const only = (resolved: Resolved, type: string) => {
  const found = Object.values(resolved.resources).filter((r) => r.Type === type);
  expect(found, type).toHaveLength(1);
  return (found[0] as Resolved['resources'][string]).Properties;
};
const distributionOf = (resolved: Resolved) =>
  only(resolved, 'AWS::CloudFront::Distribution').DistributionConfig as Record<string, unknown>;
const appUrlParameterOf = (resolved: Resolved) =>
  Object.values(resolved.resources).find((r) => r.Type === 'AWS::SSM::Parameter' && r.Properties.Name === '/Switchboard/app-url')
    ?.Properties.Value;
const ourFunctions = (resolved: Resolved) =>
  Object.values(resolved.resources).filter(
    (r) =>
      r.Type === 'AWS::Lambda::Function' &&
      (r.Properties.Tags as { Key: string }[] | undefined)?.some((tag) => tag.Key === HANDLER_TAG),
  );
const matches = (parameter: string, value: string) =>
  new RegExp((json.Parameters[parameter] as { AllowedPattern: string }).AllowedPattern).test(value);

describe('every choice of parameters', () => {
  it.each([
    ['the defaults', {}],
    [
      'a custom domain',
      { DomainName: 'app.example.com', CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-1' },
    ],
    ['a web ACL of its own', { WafRateLimit: '2000' }],
    ['an existing web ACL', { WebAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/1234' }],
    [
      'a restored table and the old key',
      { ExistingTableName: 'restored', ExistingKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/k-1' },
    ],
  ])('references only what it creates: %s', (_, values) => {
    const resolved = deployWith(values, { 'AWS::Region': 'us-east-1' });
    expect(resolved.dangling).toEqual([]);
    expect(resolved.refusals).toEqual([]);
  });
});

describe("the account's API Gateway logging role", () => {
  it('is set with -c switchboard:apiGatewayLoggingRole=true, as the CLI passes it (a string), before the WebSocket stage', () => {
    const { template } = synth({ context: { [API_GATEWAY_LOGGING_ROLE_CONTEXT]: 'true' } });
    template.hasResource('AWS::ApiGateway::Account', { DeletionPolicy: 'RetainExceptOnCreate' });
    const account = Object.keys(template.findResources('AWS::ApiGateway::Account'))[0];
    template.hasResource('AWS::ApiGatewayV2::Stage', {
      Properties: { StageName: 'ws' },
      DependsOn: Match.arrayWith([account]),
    });
  });

  it('is left alone without the flag, and synth warns with the command that tells whether the account has one', () => {
    plain.template.resourceCountIs('AWS::ApiGateway::Account', 0);
    annotationsOf(plain.stack).hasWarning(
      '/Switchboard/Realtime',
      Match.stringLikeRegexp(`${API_GATEWAY_LOGGING_ROLE_CHECK}.*${API_GATEWAY_LOGGING_ROLE_CONTEXT}=true`),
    );
  });

  it('is left alone, without the warning, with =false (the account has one)', () => {
    const { stack, template } = synth({ context: { [API_GATEWAY_LOGGING_ROLE_CONTEXT]: 'false' } });
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    const warnings = annotationsOf(stack).findWarning('*', Match.anyValue());
    expect(JSON.stringify(warnings)).not.toContain(API_GATEWAY_LOGGING_ROLE_WARNING);
    expect(JSON.stringify(warnings)).not.toContain(API_GATEWAY_LOGGING_ROLE_CHECK);
  });

  it('refuses a value that is neither true nor false, instead of reading it as no', () => {
    expect(() => synth({ context: { [API_GATEWAY_LOGGING_ROLE_CONTEXT]: 'yes' } })).toThrow(/give true or false/);
  });
});

describe('a failed first deploy', () => {
  it('leaves nothing behind: every resource kept on delete is RetainExceptOnCreate (table, key, buckets)', () => {
    const { template } = synth({ context: { [API_GATEWAY_LOGGING_ROLE_CONTEXT]: 'true' } });
    const kept = Object.entries(template.toJSON().Resources as Record<string, { Type: string; DeletionPolicy?: string }>).filter(
      ([, resource]) => resource.DeletionPolicy !== undefined && resource.DeletionPolicy !== 'Delete',
    );
    expect(kept.map(([, r]) => r.Type).sort()).toEqual(
      [
        'AWS::ApiGateway::Account',
        'AWS::DynamoDB::Table',
        'AWS::IAM::Role',
        'AWS::KMS::Key',
        'AWS::S3::Bucket',
        'AWS::S3::Bucket',
        // The pictures bucket (picture-bucket.ts).
        'AWS::S3::Bucket',
        'Custom::AWS',
      ].sort(),
    );
    for (const [id, resource] of kept) expect(resource.DeletionPolicy, id).toBe('RetainExceptOnCreate');
  });

  it('can delete the table: deletion protection is set after its create, and lifted only when that create rolls back', () => {
    const table = logicalIdOf('AWS::DynamoDB::Table');
    // In the table's properties it would make the rollback of a failed first create fail (ROLLBACK_FAILED).
    expect(json.Resources[table].Properties.DeletionProtectionEnabled).toBeUndefined();
    const protection = Object.values(plain.template.findResources('Custom::AWS'))[0] as {
      Properties: Record<string, unknown>;
      DeletionPolicy: string;
      Condition: string;
    };
    const call = (phase: string) => JSON.stringify(protection.Properties[phase]);
    for (const phase of ['Create', 'Update']) {
      expect(call(phase)).toContain('updateTable');
      expect(call(phase)).toContain('\\"DeletionProtectionEnabled\\":true');
      expect(call(phase)).toContain(JSON.stringify({ Ref: table }));
    }
    expect(call('Delete')).toContain('\\"DeletionProtectionEnabled\\":false');
    // Kept (so never deleted, the protection staying on) except when its own create rolls back.
    expect(protection.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(protection.Condition).toBe(json.Resources[table].Condition);
  });

  it('adds at most one table index per release, as CloudFormation creates one per update (docs/deploy.md: Upgrading)', () => {
    // The indexes of deployed stacks before this release (who sees what adds GSI4): a
    // release that adds one more lists these first.
    const deployed = ['GSI1', 'GSI2', 'GSI3'];
    const indexes = (
      json.Resources[logicalIdOf('AWS::DynamoDB::Table')].Properties.GlobalSecondaryIndexes as { IndexName: string }[]
    ).map((index) => index.IndexName);
    expect(indexes).toEqual(tableDefinition.globalSecondaryIndexes.map((index) => index.indexName));
    expect(indexes.slice(0, deployed.length)).toEqual(deployed);
    expect(indexes.length - deployed.length).toBeLessThanOrEqual(1);
  });

  it('keeps the logical ids of the table and the key of existing deployments (another would replace them)', () => {
    expect(logicalIdOf('AWS::DynamoDB::Table')).toBe('DataTableFDBAD0F2');
    expect(logicalIdOf('AWS::KMS::Key')).toBe('CustomerSecretsKey257C893E');
  });
});

describe('custom domain', () => {
  const domain = { DomainName: 'app.example.com', CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-1' };

  it('without DomainName: the CloudFront domain and certificate, and the app URL is the distribution’s', () => {
    const resolved = deployWith();
    const config = distributionOf(resolved);
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
    const distribution = logicalIdOf('AWS::CloudFront::Distribution');
    const url = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]] };
    expect(appUrlParameterOf(resolved)).toEqual(url);
    expect(resolved.outputs.AppUrl).toEqual(url);
  });

  it('with DomainName and CertificateArn: answers on the domain with TLS 1.2 or newer; mail links and webhooks use it', () => {
    const resolved = deployWith(domain);
    const config = distributionOf(resolved);
    expect(config.Aliases).toEqual(['app.example.com']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: domain.CertificateArn,
      SslSupportMethod: 'sni-only',
      MinimumProtocolVersion: 'TLSv1.2_2021',
    });
    // Verification and invitation links and the webhook base read this parameter (APP_URL).
    expect(appUrlParameterOf(resolved)).toBe('https://app.example.com');
    expect(resolved.outputs).toMatchObject({
      AppUrl: 'https://app.example.com',
      TwilioWebhookBaseUrl: 'https://app.example.com/webhooks/twilio',
      HealthUrl: 'https://app.example.com/api/v1/health',
    });
    const appUrlFunctions = ourFunctions(resolved).filter(
      (fn) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.APP_URL_PARAMETER,
    );
    expect(appUrlFunctions.length).toBeGreaterThan(3);
    for (const fn of appUrlFunctions) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.APP_URL_PARAMETER).toBe(
        '/Switchboard/app-url',
      );
    }
  });

  it('takes a certificate from us-east-1 only, and the two parameters together', () => {
    expect(matches('CertificateArn', domain.CertificateArn)).toBe(true);
    expect(matches('CertificateArn', 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-1')).toBe(false);
    expect(matches('DomainName', 'app.example.com')).toBe(true);
    expect(matches('DomainName', 'https://app.example.com')).toBe(false);
    expect(deployWith({ DomainName: domain.DomainName }).refusals).toEqual([expect.stringMatching(/give both/)]);
    expect(deployWith({ CertificateArn: domain.CertificateArn }).refusals).toEqual([expect.stringMatching(/give both/)]);
  });
});

describe('origin secret rotation', () => {
  it('has CloudFront send the version named by OriginSecretVersion (AWSCURRENT at deploy time when empty)', () => {
    const secret = Object.keys(plain.template.findResources('AWS::SecretsManager::Secret')).find((id) =>
      id.startsWith('OriginSecret'),
    );
    const origins = (
      distributionOf(deployWith()).Origins as { CustomOriginConfig?: unknown; OriginCustomHeaders?: unknown }[]
    ).filter((origin) => origin.CustomOriginConfig);
    expect(origins).toHaveLength(2);
    for (const origin of origins) {
      expect(origin.OriginCustomHeaders).toEqual([
        {
          HeaderName: ORIGIN_SECRET_HEADER,
          // Secret id, then json key, version stage and version id: an empty version id is the current version.
          HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secret }, ':SecretString:::', '', '}}']] },
        },
      ]);
    }
    const version = '0f3e6a1c-7b55-4c1f-9a0e-2d6c8f1b4e21';
    const pinned = JSON.stringify(distributionOf(deployWith({ OriginSecretVersion: version })).Origins);
    expect(pinned.split(JSON.stringify([':SecretString:::', version, '}}']).slice(1, -1))).toHaveLength(3);
  });

  it('makes a deploy with a new version a change of the distribution (so CloudFormation resolves the new value)', () => {
    const sent = (version: string) => JSON.stringify(distributionOf(deployWith({ OriginSecretVersion: version })));
    expect(sent('version-2')).not.toBe(sent('version-1'));
    expect(sent('version-1')).toBe(sent('version-1'));
    expect(matches('OriginSecretVersion', '0f3e6a1c-7b55-4c1f-9a0e-2d6c8f1b4e21')).toBe(true);
    expect(matches('OriginSecretVersion', '')).toBe(true);
    expect(matches('OriginSecretVersion', 'AWSCURRENT}} x')).toBe(false);
  });
});

describe('web ACL', () => {
  const existing = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/1234';

  it('attaches an existing web ACL (made in us-east-1) to a stack in another region, creating none', () => {
    const resolved = deployWith({ WebAclArn: existing }, { 'AWS::Region': 'eu-west-1' });
    expect(distributionOf(resolved).WebACLId).toBe(existing);
    expect(Object.values(resolved.resources).some((r) => r.Type === 'AWS::WAFv2::WebACL')).toBe(false);
    expect(resolved.refusals).toEqual([]);
    expect(matches('WebAclArn', 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/edge/1234')).toBe(false);
  });

  it('is either given or created (WafRateLimit, us-east-1 only), never both; none by default', () => {
    expect(distributionOf(deployWith()).WebACLId).toBeUndefined();
    const created = deployWith({ WafRateLimit: '2000' }, { 'AWS::Region': 'us-east-1' });
    const acl = logicalIdOf('AWS::WAFv2::WebACL');
    expect(distributionOf(created).WebACLId).toEqual({ 'Fn::GetAtt': [acl, 'Arn'] });
    expect(deployWith({ WafRateLimit: '2000' }, { 'AWS::Region': 'eu-west-1' }).refusals).toEqual([
      expect.stringMatching(/only be created in us-east-1.*WebAclArn/),
    ]);
    expect(deployWith({ WafRateLimit: '2000', WebAclArn: existing }, { 'AWS::Region': 'us-east-1' }).refusals).toEqual([
      expect.stringMatching(/one web ACL/),
    ]);
  });
});

describe('outputs', () => {
  it('name the app and health URLs, the distribution, and the secrets and key to rotate or keep', () => {
    const { outputs } = deployWith();
    const ids = (type: string, prefix: string) =>
      Object.keys(plain.template.findResources(type)).find((id) => id.startsWith(prefix)) as string;
    expect(outputs).toMatchObject({
      DistributionId: { Ref: logicalIdOf('AWS::CloudFront::Distribution') },
      DistributionDomainName: { 'Fn::GetAtt': [logicalIdOf('AWS::CloudFront::Distribution'), 'DomainName'] },
      OriginSecretArn: { Ref: ids('AWS::SecretsManager::Secret', 'OriginSecret') },
      JwtSecretArn: { Ref: ids('AWS::SecretsManager::Secret', 'JwtSecret') },
      CustomerSecretsKeyArn: { 'Fn::GetAtt': [logicalIdOf('AWS::KMS::Key'), 'Arn'] },
      TableName: { Ref: logicalIdOf('AWS::DynamoDB::Table') },
    });
    expect(JSON.stringify(outputs.HealthUrl)).toContain('/api/v1/health');
  });
});

describe('adopting a restored table and its key', () => {
  const restored = { ExistingTableName: 'switchboard-restored', ExistingKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/k-1' };

  it('creates the table and key by default, and every function uses them', () => {
    const resolved = deployWith();
    const table = logicalIdOf('AWS::DynamoDB::Table');
    expect(resolved.resources[table]).toBeDefined();
    expect(resolved.resources[logicalIdOf('AWS::KMS::Key')]).toBeDefined();
    for (const fn of ourFunctions(resolved)) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.TABLE_NAME).toEqual({ Ref: table });
    }
  });

  it('with ExistingTableName and ExistingKeyArn: creates neither, and functions read, write and decrypt with those', () => {
    const resolved = deployWith(restored);
    for (const type of ['AWS::DynamoDB::Table', 'AWS::KMS::Key', 'Custom::AWS']) {
      expect(
        Object.values(resolved.resources).filter((r) => r.Type === type),
        type,
      ).toEqual([]);
    }
    const functions = ourFunctions(resolved);
    expect(functions.length).toBeGreaterThan(20);
    const variables = functions.map((fn) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables);
    for (const v of variables) expect(v.TABLE_NAME).toBe('switchboard-restored');
    expect(variables.filter((v) => v.CUSTOMER_SECRETS_KEY_ID).map((v) => v.CUSTOMER_SECRETS_KEY_ID)).toEqual(
      expect.arrayContaining([restored.ExistingKeyArn]),
    );
    for (const v of variables) if (v.CUSTOMER_SECRETS_KEY_ID) expect(v.CUSTOMER_SECRETS_KEY_ID).toBe(restored.ExistingKeyArn);
    const policies = JSON.stringify(Object.values(resolved.resources).filter((r) => r.Type === 'AWS::IAM::Policy'));
    expect(policies).toContain('arn:aws:dynamodb:eu-west-1:123456789012:table/switchboard-restored');
    expect(policies).toContain('arn:aws:dynamodb:eu-west-1:123456789012:table/switchboard-restored/index/GSI1');
    expect(policies).toContain(restored.ExistingKeyArn);
    expect(resolved.outputs).toMatchObject({
      TableName: 'switchboard-restored',
      CustomerSecretsKeyArn: restored.ExistingKeyArn,
    });
    expect(resolved.dangling).toEqual([]);
  });

  it('takes table names and KMS key ARNs only', () => {
    expect(matches('ExistingTableName', 'switchboard-restored')).toBe(true);
    expect(matches('ExistingTableName', 'arn:aws:dynamodb:eu-west-1:123456789012:table/x')).toBe(false);
    expect(matches('ExistingKeyArn', restored.ExistingKeyArn)).toBe(true);
    expect(matches('ExistingKeyArn', 'alias/aws/dynamodb')).toBe(false);
  });
});

describe('nested stacks (the HTTP routes’ functions, route-stacks.ts)', () => {
  const handlerOf = (fn: Resolved['resources'][string]) =>
    (fn.Properties.Tags as { Key: string; Value: string }[]).find((tag) => tag.Key === HANDLER_TAG)?.Value as string;
  const nestedStackIds = Object.keys(nested);
  const nestedStackId = nestedStackIds[0] as string;
  const inNested = (resolved: Resolved) =>
    Object.entries(resolved.resources)
      .filter(([id]) => nestedStackIds.some((nestedId) => id.startsWith(`${nestedId}/`)))
      .map(([, resource]) => resource);

  it.each([
    ['the defaults', {}],
    [
      'a restored table and the old key',
      { ExistingTableName: 'restored', ExistingKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/k-1' },
    ],
  ])('give their functions the very settings of the parent’s: %s', (_, values) => {
    expect(nestedStackIds).toHaveLength(2);
    const resolved = deployWith(values, { 'AWS::Region': 'us-east-1' });
    const nestedFunctions = ourFunctions({
      ...resolved,
      resources: Object.fromEntries(inNested(resolved).map((r, i) => [i, r])),
    });
    // Every HTTP route's function, and the scheduled jobs' that name a nested stack (the parent keeps the
    // socket routes', the queue consumer's, the first job's and the authorizer).
    expect(nestedFunctions.map(handlerOf).sort()).toEqual(
      [
        ...httpRoutes.map((route) => route.handler),
        ...scheduledJobs.filter((job) => job.stack).map((job) => job.handler),
        fallbackRoute.handler,
      ].sort(),
    );
    const parentFunctions = ourFunctions(resolved).filter((fn) => !nestedFunctions.includes(fn));
    expect(parentFunctions.length).toBeGreaterThan(0);
    const variablesOf = (fn: Resolved['resources'][string]) =>
      (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    // Every variable with one value over every function, wherever it is: the table in use, the secrets, the stage…
    const valuesOf = new Map<string, unknown[]>();
    for (const fn of [...parentFunctions, ...nestedFunctions]) {
      for (const [name, value] of Object.entries(variablesOf(fn))) valuesOf.set(name, [...(valuesOf.get(name) ?? []), value]);
    }
    for (const [name, found] of valuesOf) {
      for (const value of found) expect(value, name).toEqual(found[0]);
    }
    for (const fn of nestedFunctions) {
      expect(fn.Properties.Layers).toEqual((parentFunctions[0] as Resolved['resources'][string]).Properties.Layers);
    }
    const table = 'ExistingTableName' in values ? 'restored' : { Ref: logicalIdOf('AWS::DynamoDB::Table') };
    expect(valuesOf.get('TABLE_NAME')?.[0]).toEqual(table);
    expect(valuesOf.get('MAIL_FROM')?.[0]).toBe(MAIL_FROM.MailFrom);
  });

  it('are checked like the parent: a parameter it does not pass is dangling, a nested stack without its template an error', () => {
    const withoutTable = structuredClone(json);
    delete withoutTable.Resources[nestedStackId].Properties.Parameters.TableName;
    // The parameter without a value, and what refers to it.
    expect(resolveTemplate(withoutTable, MAIL_FROM, {}, nested).dangling).toEqual([
      `${nestedStackId}/Parameters/TableName`,
      `${nestedStackId}/TableName`,
    ]);
    expect(resolveTemplate(json, MAIL_FROM, {}, nested).dangling).toEqual([]);
    expect(() => resolveTemplate(json, MAIL_FROM)).toThrow(`No template given for the nested stack ${nestedStackId}`);
  });
});

describe('docs/deploy.md', () => {
  const doc = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'deploy.md'), 'utf8');
  /** The names in the first column of the document's table rows, e.g. `| \`AppUrl\` |` or `| \`A\`, \`B\` |`. */
  const firstColumns = [...doc.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) =>
    [...(row[1] as string).matchAll(/`([A-Za-z]+)`/g)].map((name) => name[1]),
  );

  it('gives the command that adds the newest index to an adopted table, with the keys of tableDefinition', () => {
    const newest = tableDefinition.globalSecondaryIndexes.at(-1) as (typeof tableDefinition.globalSecondaryIndexes)[number];
    const attributes = [newest.partitionKey, newest.sortKey].map((name) => `AttributeName=${name},AttributeType=S`).join(' ');
    const create = JSON.stringify([
      {
        Create: {
          IndexName: newest.indexName,
          KeySchema: [
            { AttributeName: newest.partitionKey, KeyType: 'HASH' },
            { AttributeName: newest.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      },
    ]);
    expect(doc).toContain(`--attribute-definitions ${attributes} \\\n  --global-secondary-index-updates '${create}'`);
  });

  it('explains every parameter and every output of the template', () => {
    const parameters = Object.keys(json.Parameters).filter((name) => name !== 'BootstrapVersion');
    const outputs = Object.keys(json.Outputs);
    for (const name of [...parameters, ...outputs]) expect(firstColumns, name).toContain(name);
  });
});
