import { Aws, CfnCondition, CfnParameter, CfnRule, Fn, Stack } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { acknowledge } from './nag';

/**
 * An optional AWS WAF web ACL for the distribution, off unless the WafRateLimit parameter is set: one
 * rate-based rule that blocks an address sending more than that many requests in 5 minutes. A
 * CloudFront web ACL can only be created in us-east-1, which a template rule checks.
 */
export class OptionalWebAcl extends Construct {
  /** The web ACL's ARN where enabled, else AWS::NoValue. */
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
        'Requests per client address in 5 minutes above which AWS WAF blocks it (10 or more); 0 (default) creates no web ACL. WAF costs about $6/month plus $0.60 per million requests.',
    });
    const isEnabled = Fn.conditionNot(Fn.conditionEquals(Fn.ref(rateLimit.logicalId), '0'));
    const enabled = new CfnCondition(stack, 'WafEnabled', { expression: isEnabled });
    new CfnRule(stack, 'WafInUsEast1', {
      ruleCondition: isEnabled,
      assertions: [
        {
          assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
          assertDescription:
            'A WAF web ACL for CloudFront can only be created in us-east-1: deploy there, or leave WafRateLimit at 0.',
        },
      ],
    });
    const acl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'switchboard', sampledRequestsEnabled: true },
      rules: [
        {
          name: 'RateLimitPerAddress',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: rateLimit.valueAsNumber, aggregateKeyType: 'IP' } },
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
    this.arn = Fn.conditionIf(enabled.logicalId, acl.attrArn, Aws.NO_VALUE).toString();
  }
}
