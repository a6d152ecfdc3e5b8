import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CloudFormationValidatePlugin,
  type IPolicyValidationContext,
  NestedStack,
  type PolicyValidationPluginReport,
  type Stack,
  Validations,
} from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * CDK's CloudFormation Validate, which every synth runs, with the templates of nested stacks too: CDK
 * hands it the stacks of the cloud assembly only, and a nested stack's template is an asset of its
 * parent. Same rules, same acknowledgements (on the constructs, as for any stack), same failures.
 */
class EveryTemplateValidation extends CloudFormationValidatePlugin {
  override validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const nested = context.appConstruct.node
      .findAll()
      .filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct))
      .flatMap((stack) => {
        const parent = context.stackTemplates.find((t) => t.stackConstructPath === topLevelOf(stack).node.path);
        if (!parent) return [];
        const templatePath = path.join(path.dirname(parent.templatePath), stack.templateFile);
        return fs.existsSync(templatePath) ? [{ ...parent, stackConstructPath: stack.node.path, templatePath }] : [];
      });
    const stackTemplates = [...context.stackTemplates, ...nested];
    return super.validate({ ...context, stackTemplates, templatePaths: stackTemplates.map((t) => t.templatePath) });
  }
}

const topLevelOf = (stack: Stack): Stack => {
  let top = stack;
  while (top.nestedStackParent) top = top.nestedStackParent;
  return top;
};

/** One instance, as CDK keeps its own: its engine is slow to start. */
const plugin = new EveryTemplateValidation();
const validated = new WeakSet<IConstruct>();

/**
 * Has every template of the app validated, nested ones included; in place of CDK's default
 * validation (which it replaces once a CloudFormationValidatePlugin is registered). Off where CDK's
 * would be off too: `cdk synth --no-validation`, or CDK_VALIDATION=false.
 */
export function validateEveryTemplate(scope: IConstruct): void {
  const root = scope.node.root;
  if (validated.has(root) || process.env.CDK_VALIDATION === 'false') return;
  validated.add(root);
  Validations.of(root).addPlugins(plugin);
}
