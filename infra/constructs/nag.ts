import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag acknowledgements, always on the narrowest construct that holds the finding and always with
 * a reason. cdk-nag 3 reads them from `Validations.of(scope).acknowledge` metadata on the resource or
 * any of its parents.
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * Acknowledges AwsSolutions-IAM5 for exactly one wildcard resource. cdk-nag names each wildcard
 * finding after the resource as written in the template, with `Ref`/`Fn::GetAtt` flattened to
 * `<LogicalId>` / `<LogicalId.Attribute>` and `${X}` to `<X>`; this builds that name from the same ARN string the grant
 * used, so the acknowledgement cannot drift from the policy.
 */
export function acknowledgeWildcardResource(scope: IConstruct, resourceArn: string, reason: string): void {
  const flat = flatten(Stack.of(scope).resolve(resourceArn));
  acknowledge(scope, `AwsSolutions-IAM5[Resource::${flat}]`, reason);
}

function flatten(node: unknown): string {
  if (typeof node === 'string') return node.replaceAll('${', '<').replaceAll('}', '>');
  if (node && typeof node === 'object') {
    const fn = node as Record<string, unknown>;
    if (Array.isArray(fn['Fn::Join'])) {
      const [delimiter, items] = fn['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if (Array.isArray(fn['Fn::GetAtt'])) {
      const [resource, attribute] = fn['Fn::GetAtt'] as [string, string];
      return `<${resource}.${attribute}>`;
    }
    if (typeof fn.Ref === 'string') return `<${fn.Ref}>`;
    if (fn['Fn::Sub'] !== undefined) return flatten(fn['Fn::Sub']);
  }
  return JSON.stringify(node);
}
