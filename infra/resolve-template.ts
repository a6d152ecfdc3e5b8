/**
 * Evaluates a synthesized template for given parameter values as CloudFormation would before
 * creating anything: its conditions, `Fn::If`, parameter and pseudo-parameter `Ref`s, `Fn::Join`s
 * that become plain strings, and its rules; and, for each nested stack it creates, the nested
 * template with the parameters the parent passes it. Template tests use it to check what each choice
 * of the operator's parameters deploys (docs/deploy.md), without an AWS account.
 */
import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Template as CdkTemplate } from 'aws-cdk-lib/assertions';

type Json = unknown;
type Template = {
  Parameters?: Record<string, { Default?: unknown }>;
  Conditions?: Record<string, Json>;
  Rules?: Record<string, { RuleCondition?: Json; Assertions: { Assert: Json; AssertDescription?: string }[] }>;
  Resources: Record<string, { Type: string; Condition?: string; Properties?: Json; DependsOn?: string | string[] }>;
  Outputs?: Record<string, { Value: Json; Condition?: string }>;
};
export type Resolved = {
  /**
   * The resources created for these values, their properties resolved; a nested stack's as
   * `<its AWS::CloudFormation::Stack's id>/<id>`, parameters replaced by what the parent passes.
   */
  resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
  outputs: Record<string, unknown>;
  /** AssertDescription of every rule that refuses these values. */
  refusals: string[];
  /**
   * `Ref`/`Fn::GetAtt` targets that are neither parameters nor created resources, and parameters of a
   * nested stack its parent gives no value (a deploy would fail); a nested stack's prefixed as above.
   */
  dangling: string[];
};

/** The templates of a stack's nested stacks, by the logical id of their AWS::CloudFormation::Stack in it. */
export function nestedTemplatesOf(stack: Stack): Record<string, object> {
  return Object.fromEntries(
    stack.node
      .findAll()
      .filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack)
      .map((nested) => [
        stack.resolve((nested.nestedStackResource as { logicalId: string }).logicalId),
        { ...CdkTemplate.fromStack(nested).toJSON(), nested: nestedTemplatesOf(nested) },
      ]),
  );
}

const NO_VALUE = Symbol('AWS::NoValue');
const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': 'eu-west-1',
  'AWS::AccountId': '123456789012',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'Switchboard',
};

/**
 * `nested`: the templates of the nested stacks (nestedTemplatesOf), each with its own under `nested`;
 * a created nested stack without one is an error, so nothing goes unchecked.
 */
export function resolveTemplate(
  synthesized: object,
  values: Record<string, string> = {},
  pseudo: Record<string, string> = {},
  nested: Record<string, object> = {},
): Resolved {
  const template = synthesized as Template;
  for (const name of Object.keys(values)) if (!(name in (template.Parameters ?? {}))) throw new Error(`No parameter ${name}`);
  const parameters = Object.fromEntries(
    Object.entries(template.Parameters ?? {}).map(([name, p]) => [name, String(values[name] ?? p.Default ?? '')]),
  );
  return resolve(template, parameters, { ...PSEUDO, ...pseudo }, nested, new Set());
}

/**
 * `parameters`: the value of each (a nested stack's may be an expression of its parent's, such as a
 * `Ref` to a parent's resource: `external` names those, checked in the parent).
 */
function resolve(
  template: Template,
  parameters: Record<string, Json>,
  pseudos: Record<string, string>,
  nested: Record<string, object>,
  external: Set<string>,
): Resolved {
  const conditions = new Map<string, boolean>();

  const condition = (name: string): boolean => {
    if (!conditions.has(name)) {
      const expression = template.Conditions?.[name];
      if (expression === undefined) throw new Error(`No condition ${name}`);
      conditions.set(name, truth(expression));
    }
    return conditions.get(name) as boolean;
  };

  function truth(expression: Json): boolean {
    const e = expression as Record<string, Json>;
    if (typeof e.Condition === 'string') return condition(e.Condition);
    if ('Fn::Equals' in e) {
      const [a, b] = (e['Fn::Equals'] as Json[]).map(value);
      return JSON.stringify(a) === JSON.stringify(b);
    }
    if ('Fn::Not' in e) return !truth((e['Fn::Not'] as Json[])[0]);
    if ('Fn::And' in e) return (e['Fn::And'] as Json[]).every(truth);
    if ('Fn::Or' in e) return (e['Fn::Or'] as Json[]).some(truth);
    if ('Fn::Contains' in e) {
      const [list, item] = (e['Fn::Contains'] as Json[]).map(value) as [unknown[], unknown];
      return list.includes(item);
    }
    throw new Error(`A condition this evaluator does not know: ${JSON.stringify(expression)}`);
  }

  function value(node: Json): Json {
    if (Array.isArray(node)) return node.map(value).filter((item) => item !== NO_VALUE);
    if (!node || typeof node !== 'object') return node;
    const n = node as Record<string, Json>;
    const keys = Object.keys(n);
    if (keys.length === 1 && typeof n.Ref === 'string') {
      if (n.Ref === 'AWS::NoValue') return NO_VALUE;
      if (n.Ref in parameters) return parameters[n.Ref] as Json;
      if (n.Ref in pseudos) return pseudos[n.Ref];
      return n;
    }
    if (keys.length === 1 && 'Fn::If' in n) {
      const [name, yes, no] = n['Fn::If'] as [string, Json, Json];
      return value(condition(name) ? yes : no);
    }
    if (keys.length === 1 && 'Fn::Join' in n) {
      const [delimiter, items] = n['Fn::Join'] as [string, Json[]];
      const parts = value(items) as Json[];
      return parts.every((p) => typeof p === 'string') ? parts.join(delimiter) : { 'Fn::Join': [delimiter, parts] };
    }
    const out: Record<string, Json> = {};
    for (const key of keys) {
      const v = value(n[key]);
      if (v !== NO_VALUE) out[key] = v;
    }
    return out;
  }

  const resources: Resolved['resources'] = {};
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Condition && !condition(resource.Condition)) continue;
    resources[id] = { Type: resource.Type, Properties: (value(resource.Properties ?? {}) ?? {}) as Record<string, unknown> };
  }
  const outputs: Record<string, unknown> = {};
  for (const [name, output] of Object.entries(template.Outputs ?? {})) {
    if (output.Condition && !condition(output.Condition)) continue;
    outputs[name] = value(output.Value);
  }
  const refusals: string[] = [];
  for (const [name, rule] of Object.entries(template.Rules ?? {})) {
    if (rule.RuleCondition !== undefined && !truth(rule.RuleCondition)) continue;
    for (const assertion of rule.Assertions) {
      if (!truth(assertion.Assert)) refusals.push(assertion.AssertDescription ?? name);
    }
  }
  const dangling = new Set<string>();
  const visit = (node: Json) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const n = node as Record<string, Json>;
      if (typeof n.Ref === 'string' && !(n.Ref in resources) && !external.has(n.Ref)) dangling.add(n.Ref);
      const getAtt = n['Fn::GetAtt'] as [string, string] | undefined;
      if (Array.isArray(getAtt) && !(getAtt[0] in resources) && !external.has(getAtt[0])) dangling.add(getAtt[0]);
      Object.values(n).forEach(visit);
    }
  };
  visit(Object.values(resources));
  visit(Object.values(outputs));
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (!(id in resources)) continue;
    for (const dependency of [resource.DependsOn ?? []].flat()) if (!(dependency in resources)) dangling.add(dependency);
  }
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    const child = nested[id] as (Template & { nested?: Record<string, object> }) | undefined;
    if (!child) throw new Error(`No template given for the nested stack ${id}`);
    const passed = (resource.Properties.Parameters ?? {}) as Record<string, Json>;
    for (const name of Object.keys(passed)) if (!(name in (child.Parameters ?? {}))) dangling.add(`${id}/Parameters/${name}`);
    const childParameters: Record<string, Json> = {};
    for (const [name, p] of Object.entries(child.Parameters ?? {})) {
      if (name in passed) childParameters[name] = passed[name] as Json;
      else if (p.Default !== undefined) childParameters[name] = String(p.Default);
      else dangling.add(`${id}/Parameters/${name}`);
    }
    // What the parent passes was checked in the parent (its AWS::CloudFormation::Stack's properties).
    const parents = new Set(external);
    collectTargets(Object.values(passed), parents);
    const inner = resolve(
      child,
      childParameters,
      { ...pseudos, 'AWS::StackName': `${pseudos['AWS::StackName']}-${id}-NESTED` },
      child.nested ?? {},
      parents,
    );
    for (const [innerId, innerResource] of Object.entries(inner.resources)) resources[`${id}/${innerId}`] = innerResource;
    refusals.push(...inner.refusals.map((refusal) => `${id}: ${refusal}`));
    for (const target of inner.dangling) dangling.add(`${id}/${target}`);
  }
  return { resources, outputs, refusals, dangling: [...dangling].sort() };
}

/** Every `Ref` and `Fn::GetAtt` target in a node. */
function collectTargets(node: Json, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectTargets(item, into);
  else if (node && typeof node === 'object') {
    const n = node as Record<string, Json>;
    if (typeof n.Ref === 'string') into.add(n.Ref);
    const getAtt = n['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') into.add(getAtt[0]);
    for (const value of Object.values(n)) collectTargets(value, into);
  }
}
