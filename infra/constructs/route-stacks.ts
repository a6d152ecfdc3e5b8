import { NestedStack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { NestedStackName } from '../../functions/routes';
import { acknowledge } from './nag';

/** The most resources a template of the app may have (docs/architecture.md: Stack sizes); CloudFormation allows 500. */
export const MAX_TEMPLATE_RESOURCES = 300;

/**
 * The nested stack holding the functions of the HTTP routes deployed in the parent: their API routes and
 * integrations stay there (API Gateway refuses a route key moved between stacks), the functions and their
 * invoke permissions are here (docs/deploy.md: The nested stack of new features).
 */
export const HTTP_FUNCTIONS_STACK = 'HttpFunctions';

const descriptions: Record<NestedStackName | typeof HTTP_FUNCTIONS_STACK, string> = {
  FeatureRoutes: 'Switchboard: the HTTP routes that deploy whole in a nested stack (functions/routes.ts: stack)',
  HttpFunctions: 'Switchboard: the functions of the HTTP routes of the parent stack',
};

/**
 * A nested stack of HTTP routes: the functions of route-table entries, and for the routes that name it
 * (the entry's `stack`) their API routes and integrations too. Everything else they use stays in the
 * parent and is passed in: the HTTP API and its authorizer, the roles, log groups, table, secrets and
 * settings (switchboard-function.ts), which the alarms already cover.
 */
export class RouteStack extends NestedStack {
  /** Where the functions go, as `Functions` in the parent. */
  readonly functions: Construct;
  /** Where API routes and integrations go, as `Http` in the parent. */
  readonly routes: Construct;

  constructor(scope: Construct, id: NestedStackName | typeof HTTP_FUNCTIONS_STACK) {
    super(scope, id, { description: descriptions[id] });
    acknowledge(
      this,
      'CloudFormation-Validate::W2509',
      'The parameters the parent stack passes in are names and ARNs (the table, the secrets, the Parameters and Secrets extension layer), never a secret value: nothing for NoEcho to hide.',
    );
    this.functions = new Construct(this, 'Functions');
    this.routes = new Construct(this, 'Http');
  }
}
