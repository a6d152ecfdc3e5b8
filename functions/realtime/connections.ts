import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { SOCKET_CONNECTION_TTL_SECONDS } from '../../shared/constants';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';

export interface Connection {
  connectionId: string;
  companyId: string;
  userId: string;
  /** The sign-in session (refresh-token family) the socket was opened under; signing out closes it. */
  sessionId: string;
  /** ISO time $connect stored it (absent on connections listed from before it was recorded). */
  connectedAt?: string;
}

/** Two items: the company's list entry, and the owner entry that $disconnect finds by id alone. */
export async function saveConnection(c: Connection): Promise<void> {
  const TableName = tableName();
  const expiresAt = epochSeconds() + SOCKET_CONNECTION_TTL_SECONDS;
  const connectedAt = new Date().toISOString();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName,
            Item: { ...keys.connection(c.companyId, c.connectionId), entity: 'CONNECTION', ...c, connectedAt, expiresAt },
          },
        },
        { Put: { TableName, Item: { ...keys.connectionOwner(c.connectionId), entity: 'CONNECTION_OWNER', ...c, expiresAt } } },
      ],
    }),
  );
}

export async function removeConnection(connectionId: string): Promise<void> {
  const TableName = tableName();
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.connectionOwner(connectionId) }));
  if (!Item) return;
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName, Key: keys.connection(Item.companyId, connectionId) } },
        { Delete: { TableName, Key: keys.connectionOwner(connectionId) } },
      ],
    }),
  );
}

export async function removeCompanyConnection(companyId: string, connectionId: string): Promise<void> {
  const TableName = tableName();
  await Promise.all([
    db.send(new DeleteCommand({ TableName, Key: keys.connection(companyId, connectionId) })),
    db.send(new DeleteCommand({ TableName, Key: keys.connectionOwner(connectionId) })),
  ]);
}

export async function listConnections(companyId: string): Promise<Connection[]> {
  const { PK, SKPrefix } = keys.connectionsOf(companyId);
  const out: Connection[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        FilterExpression: 'expiresAt > :now',
        ExpressionAttributeValues: { ':pk': PK, ':sk': SKPrefix, ':now': epochSeconds() },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? [])
      out.push({
        connectionId: item.connectionId,
        companyId: item.companyId,
        userId: item.userId,
        sessionId: item.sessionId,
        connectedAt: item.connectedAt,
      });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}
