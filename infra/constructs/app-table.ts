import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableDefinition } from '../../functions/lib/table';

/** The app's single table, laid out by `tableDefinition` (the same module the handlers and the local table use). */
export class AppTable extends Construct {
  readonly table: dynamodb.Table;
  readonly indexNames: readonly string[];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const key = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: key(tableDefinition.partitionKey),
      sortKey: key(tableDefinition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      // Customer data outlives the stack: deleting the stack leaves the table.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    this.indexNames = tableDefinition.globalSecondaryIndexes.map((index) => index.indexName);
  }
}
