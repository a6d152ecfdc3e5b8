import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import { afterAll } from 'vitest';
import { PROJECT_ROOT, SwitchboardStack } from './switchboard-stack';

/**
 * The infra tests' synths (switchboard-stack.test.ts, deploy.suite.ts), like `npx cdk synth` (cdk.json's
 * feature flags) without bundling, each variant once per test process and shared: a synth runs CDK's
 * CloudFormation Validate over every template (constructs/template-validation.ts), and the tests only
 * read what it made.
 */
export interface Variant {
  /** The built web app; by default one that does not exist, so the upload is skipped with a warning. */
  webDistPath?: string;
  region?: string;
  /** As `-c` gives them (strings) or cdk.json (any JSON). */
  context?: Record<string, unknown>;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-infra-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const synthesised = new Map<string, { app: App; stack: SwitchboardStack; template: Template }>();

/** The app, its stack and the stack's own template (nested stacks: resolve-template.ts), synthesised once. */
export function synth(variant: Variant = {}) {
  const key = JSON.stringify([variant.webDistPath ?? null, variant.region ?? null, variant.context ?? {}]);
  const known = synthesised.get(key);
  if (known) return known;
  const { context } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8'));
  const app = new App({
    context: { ...context, ...variant.context, 'aws:cdk:bundling-stacks': [] },
    outdir: fs.mkdtempSync(path.join(tmp, 'out-')),
  });
  const stack = new SwitchboardStack(app, 'Switchboard', {
    webDistPath: variant.webDistPath ?? path.join(tmp, 'missing-dist'),
    env: variant.region ? { region: variant.region } : undefined,
  });
  const made = { app, stack, template: Template.fromStack(stack) };
  synthesised.set(key, made);
  return made;
}

const annotations = new WeakMap<SwitchboardStack, Annotations>();

/** Annotations.fromStack, once a stack: each call synthesises the app again. */
export function annotationsOf(stack: SwitchboardStack): Annotations {
  const known = annotations.get(stack) ?? Annotations.fromStack(stack);
  annotations.set(stack, known);
  return known;
}
