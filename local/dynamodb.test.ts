import { CreateTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { GSI1, GSI2, GSI3, GSI4, tableDefinition } from '../functions/lib/table';
import { dynamoDbLocal, ownTable } from '../test/support/dynamodb-local';
import { ensureTable } from './dynamodb';

const dynamo = dynamoDbLocal();

async function indexesOf(tableName: string) {
  const { Table } = await dynamo.client.send(new DescribeTableCommand({ TableName: tableName }));
  return (Table?.GlobalSecondaryIndexes ?? []).map((i) => ({ name: i.IndexName, status: i.IndexStatus })).sort(byName);
}
const byName = (a: { name?: string }, b: { name?: string }) => (a.name ?? '').localeCompare(b.name ?? '');

describe('ensureTable', () => {
  it('creates a missing table with every index of the definition and the TTL attribute', async () => {
    const fresh = ownTable('fresh');
    expect(await ensureTable(dynamo.client, fresh)).toEqual({ created: true, addedIndexes: [] });

    expect(await indexesOf(fresh)).toEqual(
      tableDefinition.globalSecondaryIndexes.map((i) => ({ name: i.indexName, status: 'ACTIVE' })).sort(byName),
    );
    const ttl = await dynamo.client.send(new DescribeTimeToLiveCommand({ TableName: fresh }));
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe(tableDefinition.ttlAttribute);
    expect(await ensureTable(dynamo.client, fresh)).toEqual({ created: false, addedIndexes: [] });
  });

  it("adds the indexes an earlier checkout's table lacks, and they list the items it already holds", async () => {
    // The table as `npm start` created it before GSI2 (and GSI3, GSI4) existed.
    const oldCheckout = ownTable('old-checkout');
    await dynamo.client.send(
      new CreateTableCommand({
        TableName: oldCheckout,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['PK', 'SK', GSI1.partitionKey, GSI1.sortKey].map((AttributeName) => ({
          AttributeName,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: GSI1.indexName,
            KeySchema: [
              { AttributeName: GSI1.partitionKey, KeyType: 'HASH' },
              { AttributeName: GSI1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    const doc = DynamoDBDocumentClient.from(dynamo.client);
    const item = {
      PK: 'COMPANY#c',
      SK: 'CONV#v',
      [GSI2.partitionKey]: 'COMPANY#c#CONVS',
      [GSI2.sortKey]: '2026-01-01T00:00:00.000Z#v',
    };
    await doc.send(new PutCommand({ TableName: oldCheckout, Item: item }));

    expect(await ensureTable(dynamo.client, oldCheckout)).toEqual({
      created: false,
      addedIndexes: [GSI2.indexName, GSI3.indexName, GSI4.indexName],
    });

    expect(await indexesOf(oldCheckout)).toEqual([
      { name: GSI1.indexName, status: 'ACTIVE' },
      { name: GSI2.indexName, status: 'ACTIVE' },
      { name: GSI3.indexName, status: 'ACTIVE' },
      { name: GSI4.indexName, status: 'ACTIVE' },
    ]);
    const listed = await doc.send(
      new QueryCommand({
        TableName: oldCheckout,
        IndexName: GSI2.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI2.partitionKey },
        ExpressionAttributeValues: { ':pk': 'COMPANY#c#CONVS' },
      }),
    );
    expect(listed.Items).toEqual([item]);
    // The next start finds nothing left to add.
    expect(await ensureTable(dynamo.client, oldCheckout)).toEqual({ created: false, addedIndexes: [] });
  });
});
