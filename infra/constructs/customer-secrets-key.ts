import { CfnCondition, CfnParameter, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/**
 * The KMS key of customers' Twilio credentials: the stack's own, or the one named by the
 * ExistingKeyArn parameter. Stored credentials decrypt only with the key that encrypted them, so a
 * restored table (docs/deploy.md: Backup and restore) must come back with the same key.
 */
export class CustomerSecretsKey extends Construct {
  /** The key in use. */
  readonly key: kms.IKey;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const existing = new CfnParameter(stack, 'ExistingKeyArn', {
      type: 'String',
      default: '',
      allowedPattern: '^(arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/[A-Za-z0-9-]+)?$',
      constraintDescription: 'must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), or empty',
      description:
        "ARN of the KMS key (in this region) that encrypted the Twilio credentials in the table, e.g. the CustomerSecretsKeyArn output of an earlier stack; empty: the stack's own key.",
    });
    const createKey = new CfnCondition(stack, 'CreatesCustomerSecretsKey', {
      expression: Fn.conditionEquals(existing.valueAsString, ''),
    });
    // 'Default' keeps the logical ID the key had before this construct: another ID would replace the key.
    const created = new kms.Key(this, 'Default', {
      description: "Encrypts customers' Twilio credentials (encryption context: company id)",
      enableKeyRotation: true,
      // Kept when the stack is deleted (the credentials in the table need it), deleted if its first create rolls back.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    (created.node.defaultChild as kms.CfnKey).cfnOptions.condition = createKey;
    this.key = kms.Key.fromKeyArn(
      this,
      'InUse',
      Fn.conditionIf(createKey.logicalId, created.keyArn, existing.valueAsString).toString(),
    );
  }
}
