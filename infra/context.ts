import type { IConstruct } from 'constructs';

/**
 * A yes/no context value as the CDK CLI passes it (`-c key=true` arrives as the string "true") or as
 * cdk.json / a test passes it (a boolean); undefined when not given. Anything else stops the synth, so
 * a typo is not read as "no".
 */
export function contextFlag(scope: IConstruct, key: string): boolean | undefined {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`-c ${key}=${String(value)}: give true or false`);
}
