import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Inbox, InboxDetail, InboxMember, RoutingStrategy } from '../../shared/contract/settings';
import type { UserRecord } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { AppError, conflict, notFound } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { named, transact } from '../lib/transact';
import { readyUserIds } from '../realtime/phone-readiness';
import { listChannelRecords } from './channels';
import { type InboxMemberRecord, type InboxRecord, toInbox } from './records';

const inboxNotFound = () => notFound('Inbox not found');

export async function getInboxRecord(companyId: string, inboxId: string): Promise<InboxRecord> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.inbox(companyId, inboxId), ConsistentRead: true }),
  );
  if (!Item) throw inboxNotFound();
  return Item as InboxRecord;
}

export async function channelCounts(companyId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const c of await listChannelRecords(companyId)) {
    if (c.routingType === 'INBOX' && c.routingTargetId) counts.set(c.routingTargetId, (counts.get(c.routingTargetId) ?? 0) + 1);
  }
  return counts;
}

export async function listInboxes(companyId: string): Promise<Inbox[]> {
  const [inboxes, counts] = await Promise.all([queryPrefix<InboxRecord>(keys.inboxesOf(companyId)), channelCounts(companyId)]);
  return inboxes.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((i) => toInbox(i, counts.get(i.id) ?? 0));
}

const nameTaken = (name: string) => {
  const message = `An inbox named ${name} already exists.`;
  return new AppError(409, 'CONFLICT', message, { fields: { name: message } });
};

/** Inbox names are unique per company (case and spacing aside): the name item and the inbox are written together. */
export async function createInbox(companyId: string, name: string, description: string | null): Promise<Inbox> {
  const TableName = tableName();
  const nameKey = keys.inboxName(companyId, name);
  // Inboxes made before names were reserved have no name item: compare with the list too.
  const existing = await queryPrefix<InboxRecord>(keys.inboxesOf(companyId));
  if (existing.some((i) => keys.inboxName(companyId, i.name).SK === nameKey.SK)) throw nameTaken(name);
  const inbox: InboxRecord = {
    id: newId(),
    companyId,
    name,
    description: description || null,
    memberCount: 0,
    createdAt: new Date().toISOString(),
  };
  const result = await transact([
    named('name', {
      Put: {
        TableName,
        Item: { ...nameKey, entity: 'INBOX_NAME', inboxId: inbox.id },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    }),
    {
      Put: {
        TableName,
        Item: { ...keys.inbox(companyId, inbox.id), entity: 'INBOX', ...inbox },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ]);
  if (!result.written) {
    if (result.failed('name')) throw nameTaken(name);
    throw result.error;
  }
  return toInbox(inbox, 0);
}

export async function getInbox(companyId: string, inboxId: string): Promise<InboxDetail> {
  const [inbox, members, counts, ready] = await Promise.all([
    getInboxRecord(companyId, inboxId),
    queryPrefix<InboxMemberRecord>(keys.inboxMembersOf(companyId, inboxId)),
    channelCounts(companyId),
    readyUserIds(companyId),
  ]);
  const users = await usersById(
    companyId,
    members.map((m) => m.userId),
  );
  return {
    ...toInbox(inbox, counts.get(inboxId) ?? 0),
    members: members
      .filter((m) => users.has(m.userId))
      .map((m) => ({ ...toMember(m, users.get(m.userId) as UserRecord), phoneReady: ready.has(m.userId) }))
      .sort((a, b) => a.user.name.localeCompare(b.user.name)),
  };
}

function toMember(member: InboxMemberRecord, user: Pick<UserRecord, 'name' | 'email'>): InboxMember {
  return { id: member.id, userId: member.userId, user: { name: user.name, email: user.email } };
}

async function usersById(companyId: string, userIds: string[]): Promise<Map<string, UserRecord>> {
  const users = await batchGetAll<UserRecord>(userIds.map((id) => keys.user(companyId, id)));
  return new Map(users.map((user) => [user.id, user]));
}

/**
 * Deletes an inbox. Channels routed to it fall back to UNASSIGNED first, so no channel ever points at
 * a missing inbox; then its members, their reverse items and its routing strategies go.
 */
export async function deleteInbox(companyId: string, inboxId: string): Promise<Inbox> {
  const inbox = await getInboxRecord(companyId, inboxId);
  const TableName = tableName();
  const routed = (await listChannelRecords(companyId)).filter((c) => c.routingType === 'INBOX' && c.routingTargetId === inboxId);
  await Promise.all(
    routed.map((c) =>
      db
        .send(
          new UpdateCommand({
            TableName,
            Key: keys.channel(companyId, c.id),
            UpdateExpression: 'SET routingType = :unassigned, routingTargetId = :null',
            ConditionExpression: 'routingType = :inbox AND routingTargetId = :id',
            ExpressionAttributeValues: { ':unassigned': 'UNASSIGNED', ':null': null, ':inbox': 'INBOX', ':id': inboxId },
          }),
        )
        .catch((error: Error) => {
          // Rerouted meanwhile: it no longer points here, which is all this step needs.
          if (error.name !== 'ConditionalCheckFailedException') throw error;
        }),
    ),
  );
  const [members, strategies] = await Promise.all([
    queryPrefix<InboxMemberRecord>(keys.inboxMembersOf(companyId, inboxId)),
    queryPrefix<{ channelType: string }>(keys.inboxRoutingOf(companyId, inboxId)),
  ]);
  const deletes = [
    ...members.flatMap((m) => [keys.inboxMember(companyId, inboxId, m.userId), keys.userInbox(companyId, m.userId, inboxId)]),
    ...strategies.map((s) => keys.inboxRouting(companyId, inboxId, s.channelType)),
  ];
  for (let i = 0; i < deletes.length; i += 100) {
    await db.send(
      new TransactWriteCommand({ TransactItems: deletes.slice(i, i + 100).map((Key) => ({ Delete: { TableName, Key } })) }),
    );
  }
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName, Key: keys.inbox(companyId, inboxId) } },
        // Only this inbox's reservation: the name frees up for a new inbox.
        {
          Delete: {
            TableName,
            Key: keys.inboxName(companyId, inbox.name),
            ConditionExpression: 'attribute_not_exists(PK) OR inboxId = :id',
            ExpressionAttributeValues: { ':id': inboxId },
          },
        },
      ],
    }),
  );
  return toInbox(inbox, 0);
}

export async function addMember(companyId: string, inboxId: string, userId: string): Promise<InboxMember> {
  const TableName = tableName();
  await getInboxRecord(companyId, inboxId);
  const { Item: user } = await db.send(new GetCommand({ TableName, Key: keys.user(companyId, userId) }));
  if (!user || user.removedAt) throw notFound('User not found');
  const member: InboxMemberRecord = { id: newId(), inboxId, userId, createdAt: new Date().toISOString() };
  const result = await transact([
    {
      Put: {
        TableName,
        Item: { ...keys.inboxMember(companyId, inboxId, userId), entity: 'INBOX_MEMBER', companyId, ...member },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName,
        Item: { ...keys.userInbox(companyId, userId, inboxId), entity: 'USER_INBOX', companyId, inboxId, userId },
      },
    },
    {
      Update: {
        TableName,
        Key: keys.inbox(companyId, inboxId),
        UpdateExpression: 'ADD memberCount :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
    // A user removed from the company meanwhile never becomes a member again.
    {
      ConditionCheck: {
        TableName,
        Key: keys.user(companyId, userId),
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt)',
      },
    },
  ]);
  if (!result.written) {
    const [member, , inbox, target] = result.reasons;
    if (member?.Code === 'ConditionalCheckFailed') throw conflict('This user is already a member of this inbox.');
    if (target?.Code === 'ConditionalCheckFailed' && inbox?.Code !== 'ConditionalCheckFailed') throw notFound('User not found');
    throw inboxNotFound();
  }
  return toMember(member, user as UserRecord);
}

export async function removeMember(companyId: string, inboxId: string, userId: string): Promise<InboxMember> {
  const TableName = tableName();
  await getInboxRecord(companyId, inboxId);
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.inboxMember(companyId, inboxId, userId) }));
  if (!Item) throw notFound('Member not found');
  const { Item: user } = await db.send(new GetCommand({ TableName, Key: keys.user(companyId, userId) }));
  const result = await transact([
    {
      Delete: { TableName, Key: keys.inboxMember(companyId, inboxId, userId), ConditionExpression: 'attribute_exists(PK)' },
    },
    { Delete: { TableName, Key: keys.userInbox(companyId, userId, inboxId) } },
    {
      Update: {
        TableName,
        Key: keys.inbox(companyId, inboxId),
        UpdateExpression: 'ADD memberCount :minus',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  ]);
  if (!result.written) throw notFound('Member not found');
  return toMember(Item as InboxMemberRecord, (user as UserRecord | undefined) ?? { name: '', email: '' });
}

export async function getRoutingStrategies(companyId: string, inboxId: string): Promise<RoutingStrategy[]> {
  await getInboxRecord(companyId, inboxId);
  const items = await queryPrefix<RoutingStrategy>(keys.inboxRoutingOf(companyId, inboxId));
  return items.map((s) => ({ channelType: s.channelType, strategyType: s.strategyType, config: s.config ?? {} }));
}

export async function saveRoutingStrategy(
  companyId: string,
  inboxId: string,
  strategy: RoutingStrategy,
): Promise<RoutingStrategy> {
  const TableName = tableName();
  const result = await transact([
    { ConditionCheck: { TableName, Key: keys.inbox(companyId, inboxId), ConditionExpression: 'attribute_exists(PK)' } },
    {
      Put: {
        TableName,
        Item: {
          ...keys.inboxRouting(companyId, inboxId, strategy.channelType),
          entity: 'INBOX_ROUTING',
          companyId,
          inboxId,
          ...strategy,
          updatedAt: new Date().toISOString(),
        },
      },
    },
  ]);
  if (!result.written) throw inboxNotFound();
  return strategy;
}
