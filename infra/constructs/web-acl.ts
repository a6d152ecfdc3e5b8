import { Aws, CfnCondition, CfnParameter, CfnRule, Fn, Stack } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { acknowledge } from './nag';

/** Paths the sign-in rule counts: every route of the auth API (sign-up, sign-in, refresh, verification). */
export const WAF_AUTH_PATH_PREFIX = '/api/v1/auth/';
/**
 * Paths the per-address rule leaves out: Twilio posts every company's webhooks from a few shared
 * addresses, so one busy company would get Twilio itself blocked for all. Webhooks are signed
 * (functions/lib/define-webhook.ts) and throttled with the stage.
 */
export const WAF_WEBHOOK_PATH_PREFIX = '/webhooks/';
/** The sign-in rule's default: requests per address in 5 minutes (docs/deploy.md: Parameters). */
export const WAF_AUTH_RATE_LIMIT_DEFAULT = 100;

/** A path as WAF should compare it: decoded and normalised, so `/api/v1/%61uth/` or `//api/...` cannot slip past. */
const PATH_TRANSFORMATIONS = [
  { priority: 0, type: 'URL_DECODE' },
  { priority: 1, type: 'NORMALIZE_PATH' },
];
const pathStartsWith = (prefix: string): wafv2.CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'STARTS_WITH',
    searchString: prefix,
    textTransformations: PATH_TRANSFORMATIONS,
  },
});

/**
 * An optional AWS WAF web ACL for the distribution, off unless the WafRateLimit parameter is set. Two
 * rate-based rules per client address, over 5 minutes: WafAuthRateLimit requests to the auth routes
 * (password guessing and sign-up floods stop at the edge, before a function hashes anything), and
 * WafRateLimit requests to everything but the Twilio webhooks. A CloudFront web ACL can only be
 * created in us-east-1, which a template rule checks. A stack in another region attaches a web ACL
 * made in us-east-1 instead (the WebAclArn parameter); a distribution has one web ACL, so the two
 * exclude each other (a template rule), and that ACL's own rules apply (docs/deploy.md: Parameters).
 */
export class OptionalWebAcl extends Construct {
  /** The given web ACL's ARN, else the created one's where enabled, else AWS::NoValue. */
  readonly arn: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const rateLimit = new CfnParameter(stack, 'WafRateLimit', {
      type: 'Number',
      default: 0,
      minValue: 0,
      maxValue: 2_000_000_000,
      description:
        'Requests per client address in 5 minutes (Twilio webhooks not counted) above which AWS WAF blocks it (10 or more); 0 (default) creates no web ACL. WAF costs about $6/month plus $0.60 per million requests.',
    });
    const authRateLimit = new CfnParameter(stack, 'WafAuthRateLimit', {
      type: 'Number',
      default: WAF_AUTH_RATE_LIMIT_DEFAULT,
      minValue: 10,
      maxValue: 2_000_000_000,
      description: `With WafRateLimit set: requests per client address in 5 minutes to ${WAF_AUTH_PATH_PREFIX}* (sign-up, sign-in, refresh) above which AWS WAF blocks it (10 or more).`,
    });
    const givenAcl = new CfnParameter(stack, 'WebAclArn', {
      type: 'String',
      default: '',
      allowedPattern: '^(arn:aws[a-z-]*:wafv2:us-east-1:[0-9]{12}:global/webacl/.+)?$',
      constraintDescription: 'must be the ARN of a web ACL with CloudFront scope (made in us-east-1), or empty',
      description:
        'ARN of an existing AWS WAF web ACL for CloudFront (scope CLOUDFRONT, made in us-east-1) to attach to the distribution; for stacks outside us-east-1. Not with WafRateLimit.',
    });
    const aclGiven = Fn.conditionNot(Fn.conditionEquals(givenAcl.valueAsString, ''));
    const hasGivenAcl = new CfnCondition(stack, 'WebAclGiven', { expression: aclGiven });
    const isEnabled = Fn.conditionNot(Fn.conditionEquals(Fn.ref(rateLimit.logicalId), '0'));
    new CfnRule(stack, 'OneWebAcl', {
      ruleCondition: aclGiven,
      assertions: [
        {
          assert: Fn.conditionEquals(Fn.ref(rateLimit.logicalId), '0'),
          assertDescription:
            'A distribution has one web ACL: with WebAclArn leave WafRateLimit at 0 and put rate-based rules into that web ACL.',
        },
      ],
    });
    const enabled = new CfnCondition(stack, 'WafEnabled', { expression: isEnabled });
    new CfnRule(stack, 'WafInUsEast1', {
      ruleCondition: isEnabled,
      assertions: [
        {
          assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
          assertDescription:
            'A WAF web ACL for CloudFront can only be created in us-east-1: deploy there, or leave WafRateLimit at 0 and attach a web ACL made in us-east-1 with WebAclArn.',
        },
      ],
    });
    const acl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'switchboard', sampledRequestsEnabled: true },
      rules: [
        {
          name: 'AuthRateLimitPerAddress',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: authRateLimit.valueAsNumber,
              aggregateKeyType: 'IP',
              scopeDownStatement: pathStartsWith(WAF_AUTH_PATH_PREFIX),
            },
          },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: 'switchboard-auth-rate-limit',
            sampledRequestsEnabled: true,
          },
        },
        {
          name: 'RateLimitPerAddress',
          priority: 1,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: rateLimit.valueAsNumber,
              aggregateKeyType: 'IP',
              scopeDownStatement: { notStatement: { statement: pathStartsWith(WAF_WEBHOOK_PATH_PREFIX) } },
            },
          },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: 'switchboard-rate-limit',
            sampledRequestsEnabled: true,
          },
        },
      ],
    });
    acl.cfnOptions.condition = enabled;
    // The template check reads the parameter's default (0, below WAF's minimum of 10) into the limit.
    acknowledge(
      stack,
      'CloudFormation-Validate::W1030',
      'The web ACL is created only when WafRateLimit is not 0 (condition WafEnabled), so its 0 default never reaches the rate limit.',
    );
    this.arn = Fn.conditionIf(
      hasGivenAcl.logicalId,
      givenAcl.valueAsString,
      Fn.conditionIf(enabled.logicalId, acl.attrArn, Aws.NO_VALUE),
    ).toString();
  }
}
