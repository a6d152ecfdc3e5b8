import { CfnCondition, CfnParameter, type CfnResource, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { tableDefinition } from '../../functions/lib/table';

/**
 * The app's single table, laid out by `tableDefinition` (the same module the handlers and the local
 * table use): the stack's own, or an existing one named by the ExistingTableName parameter (a table
 * restored from point-in-time recovery, docs/deploy.md: Backup and restore), which the stack then only uses.
 */
export class AppTable extends Construct {
  /** The table in use. */
  readonly table: dynamodb.ITable;
  readonly indexNames: readonly string[];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const key = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
    const existing = new CfnParameter(stack, 'ExistingTableName', {
      type: 'String',
      default: '',
      allowedPattern: '^[a-zA-Z0-9_.-]{0,255}$',
      constraintDescription: 'must be a DynamoDB table name, or empty',
      description:
        "Name of an existing table (in this region) to use instead of the stack's own, e.g. one restored with point-in-time recovery; it needs the same keys and indexes. Empty: the stack's table.",
    });
    const createTable = new CfnCondition(stack, 'CreatesTable', {
      expression: Fn.conditionEquals(existing.valueAsString, ''),
    });

    const created = new dynamodb.Table(this, 'Table', {
      partitionKey: key(tableDefinition.partitionKey),
      sortKey: key(tableDefinition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      // Customer data outlives the stack (deleting it leaves the table); a rolled-back first create
      // deletes it, so a failed first deploy leaves nothing behind.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    for (const index of tableDefinition.globalSecondaryIndexes) {
      created.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    (created.node.defaultChild as dynamodb.CfnTable).cfnOptions.condition = createTable;

    this.table = dynamodb.Table.fromTableName(
      this,
      'InUse',
      Fn.conditionIf(createTable.logicalId, created.tableName, existing.valueAsString).toString(),
    );
    this.protectFromDeletion(created, createTable);
    this.indexNames = tableDefinition.globalSecondaryIndexes.map((index) => index.indexName);
  }

  /**
   * Deletion protection, set once the table exists rather than in its properties: a protected table
   * cannot be deleted by the rollback of a failed first create, which would then fail itself and
   * leave the stack in ROLLBACK_FAILED. This resource is kept like the table on update or delete (so
   * the protection stays), and only a rollback of its create runs its delete, which lifts it.
   */
  private protectFromDeletion(table: dynamodb.Table, createTable: CfnCondition): void {
    const call = (enabled: boolean): cr.AwsSdkCall => ({
      service: 'DynamoDB',
      action: 'updateTable',
      parameters: { TableName: table.tableName, DeletionProtectionEnabled: enabled },
      physicalResourceId: cr.PhysicalResourceId.of(table.tableName),
    });
    // Its own log group, deleted with the stack (CDK's default one is kept forever), and an own role
    // instead of AWSLambdaBasicExecutionRole: logs may go to this log group only.
    const logGroup = new logs.LogGroup(this, 'DeletionProtectionLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(this, 'DeletionProtectionRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Turns on deletion protection of the Switchboard table once it exists',
    });
    logGroup.grantWrite(role);
    const protection = new cr.AwsCustomResource(this, 'DeletionProtection', {
      onCreate: call(true),
      onUpdate: call(true),
      onDelete: call(false),
      policy: cr.AwsCustomResourcePolicy.fromStatements([
        // The ARN of the table in use: the role exists in either case, the created table only in one.
        new iam.PolicyStatement({ actions: ['dynamodb:UpdateTable'], resources: [this.table.tableArn] }),
      ]),
      installLatestAwsSdk: false,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      logGroup,
      role,
    });
    (protection.node.findChild('Resource').node.defaultChild as CfnResource).cfnOptions.condition = createTable;
  }
}
