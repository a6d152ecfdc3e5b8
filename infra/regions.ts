import {
  Aws,
  CfnCondition,
  CfnMapping,
  CfnParameter,
  CfnRule,
  Fn,
  type ICfnConditionExpression,
  type Stack,
  Token,
} from 'aws-cdk-lib';
import { RegionInfo } from 'aws-cdk-lib/region-info';

/** The Parameters and Secrets extension version whose per-region layer ARNs aws-cdk-lib knows. */
const PARAMS_AND_SECRETS_VERSION = '1.0.103';

/** Regions with a known arm64 layer ARN of the extension, from aws-cdk-lib's region facts. */
export function knownLayerArns(): Record<string, string> {
  const arns: Record<string, string> = {};
  for (const region of RegionInfo.regions) {
    const arn = region.paramsAndSecretsLambdaLayerArn(PARAMS_AND_SECRETS_VERSION, 'arm64');
    if (arn) arns[region.name] = arn;
  }
  return arns;
}

/** Opt-in regions: CloudFront does not deliver standard logs to S3 buckets in them. */
export const optInRegions = () => RegionInfo.regions.filter((r) => r.isOptInRegion).map((r) => r.name);

/**
 * The extension's layer ARN for the stack's region: the known one, else the ExtensionLayerArn
 * parameter (AWS lists the ARN of every region in the extension's documentation). A deployment to a
 * region without either is refused by a template rule before anything is created.
 */
export function paramsAndSecretsLayerArn(stack: Stack): string {
  const parameter = new CfnParameter(stack, 'ExtensionLayerArn', {
    type: 'String',
    default: '',
    description:
      'ARN of the AWS Parameters and Secrets Lambda Extension layer (arm64) in this region; needed only where the stack does not know it.',
  });
  const known = knownLayerArns();
  const given = Fn.conditionNot(Fn.conditionEquals(parameter.valueAsString, ''));
  const description = `This region needs the ExtensionLayerArn parameter: the arm64 layer ARN of the AWS Parameters and Secrets Lambda Extension here (see docs/deploy.md: Choose the region).`;
  if (!Token.isUnresolved(stack.region)) {
    const arn = known[stack.region];
    if (arn) return arn;
    new CfnRule(stack, 'LayerArnGiven', { assertions: [{ assert: given, assertDescription: description }] });
    return parameter.valueAsString;
  }
  const mapping = new CfnMapping(stack, 'ParamsAndSecretsLayer', {
    mapping: Object.fromEntries(Object.entries(known).map(([region, arn]) => [region, { arm64: arn }])),
  });
  new CfnRule(stack, 'LayerArnGiven', {
    assertions: [
      {
        assert: Fn.conditionOr(given, Fn.conditionContains(Object.keys(known), Aws.REGION)),
        assertDescription: description,
      },
    ],
  });
  // DefaultValue (AWS::LanguageExtensions, which CDK adds): no "Unable to get mapping" in other regions.
  return Fn.findInMap(mapping.logicalId, Aws.REGION, 'arm64', parameter.valueAsString);
}

/** 'on' or 'off' for a known region; a condition (true where logs can be delivered) otherwise. */
export function cloudFrontLogging(stack: Stack): 'on' | 'off' | CfnCondition {
  const optIn = optInRegions();
  if (!Token.isUnresolved(stack.region)) return optIn.includes(stack.region) ? 'off' : 'on';
  const inOptIn = anyOf(optIn.map((region) => Fn.conditionEquals(Aws.REGION, region)));
  return new CfnCondition(stack, 'CloudFrontLogsDelivered', { expression: Fn.conditionNot(inOptIn) });
}

/** Fn::Or takes 2 to 10 conditions: nest them. */
function anyOf(conditions: ICfnConditionExpression[]): ICfnConditionExpression {
  if (conditions.length === 1) return conditions[0] as ICfnConditionExpression;
  if (conditions.length <= 10) return Fn.conditionOr(...conditions);
  const groups: ICfnConditionExpression[] = [];
  for (let i = 0; i < conditions.length; i += 10) groups.push(anyOf(conditions.slice(i, i + 10)));
  return anyOf(groups);
}
