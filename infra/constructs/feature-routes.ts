import { NestedStack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { acknowledge } from './nag';

/**
 * Handler folders (features) whose HTTP routes deploy in the nested stack `FeatureRoutes`: their
 * functions, API routes, integrations and invoke permissions, against the 500 resources CloudFormation
 * allows a stack (docs/deploy.md: The nested stack of new features). Only features added after the
 * parent stack reached its 400 are listed: moving a deployed route would have CloudFormation create its
 * route key in the nested stack before deleting it from the parent, and API Gateway refuses the
 * duplicate. They share one nested stack, since each nested stack costs the parent a resource of its
 * own (and a log group per feature stays there); when it nears 400, the next features start a second.
 */
export const FEATURES_IN_NESTED_STACKS: readonly string[] = ['team-inbox', 'media'];

/** The feature of a route-table entry: the folder of its handler. */
export const featureOf = (handler: string) => handler.split('/')[0] as string;

/**
 * The nested stack of the listed features' HTTP routes (`FeatureRoutes`). Everything else those
 * routes use stays in the parent and is passed in: the HTTP API and its authorizer, the roles, log
 * groups, table, secrets and settings (switchboard-function.ts), which the alarms already cover.
 */
export class FeatureRoutes extends NestedStack {
  /** Where the feature's functions go, as `Functions` in the parent. */
  readonly functions: Construct;
  /** Where its API routes, integrations and invoke permissions go, as `Http` in the parent. */
  readonly routes: Construct;

  constructor(
    scope: Construct,
    readonly features: readonly string[],
  ) {
    super(scope, 'FeatureRoutes', { description: `Switchboard: the HTTP routes of ${features.join(', ')}` });
    acknowledge(
      this,
      'CloudFormation-Validate::W2509',
      'The parameters the parent stack passes in are names and ARNs (the table, the secrets, the Parameters and Secrets extension layer), never a secret value: nothing for NoEcho to hide.',
    );
    this.functions = new Construct(this, 'Functions');
    this.routes = new Construct(this, 'Http');
  }
}
