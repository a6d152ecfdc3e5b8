import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Channel } from '../../shared/contract/settings';
import { badRequest, notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { named, transact } from '../lib/transact';
import { type ChannelRecord, type InboxRecord, toChannel } from './records';
import { listCompanyUsers } from './users';

export function listChannelRecords(companyId: string): Promise<ChannelRecord[]> {
  return queryPrefix<ChannelRecord>(keys.channelsOf(companyId));
}

/** Channels with their routing target's name: three Queries, whatever the number of channels. */
export async function listChannels(companyId: string): Promise<Channel[]> {
  const [channels, inboxes, users] = await Promise.all([
    listChannelRecords(companyId),
    queryPrefix<InboxRecord>(keys.inboxesOf(companyId)),
    listCompanyUsers(companyId),
  ]);
  const names = new Map<string, string>([
    ...inboxes.map((i) => [`INBOX:${i.id}`, i.name] as const),
    ...users.map((u) => [`USER:${u.id}`, u.name] as const),
  ]);
  return channels
    .sort((a, b) => a.identifier.localeCompare(b.identifier))
    .map((c) => toChannel(c, c.routingTargetId ? names.get(`${c.routingType}:${c.routingTargetId}`) : undefined));
}

export async function getChannelRecord(companyId: string, channelId: string): Promise<ChannelRecord> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.channel(companyId, channelId) }));
  if (!Item) throw notFound('Channel not found');
  return Item as ChannelRecord;
}

/**
 * Routes a channel. The target must exist in the same company at the moment of writing: the check and
 * the update are one transaction, so a target deleted meanwhile cannot be routed to.
 */
export async function updateRouting(
  companyId: string,
  channelId: string,
  routingType: Channel['routingType'],
  routingTargetId: string | null | undefined,
): Promise<Channel> {
  const channel = await getChannelRecord(companyId, channelId);
  const TableName = tableName();
  const targetId = routingType === 'UNASSIGNED' ? null : (routingTargetId ?? null);
  if (routingType !== 'UNASSIGNED' && !targetId) {
    throw badRequest(routingType === 'INBOX' ? 'Choose an inbox' : 'Choose a user', {
      fields: { routingTargetId: routingType === 'INBOX' ? 'Choose an inbox' : 'Choose a user' },
    });
  }
  const targetKey = targetId
    ? routingType === 'INBOX'
      ? keys.inbox(companyId, targetId)
      : keys.user(companyId, targetId)
    : null;
  const result = await transact([
    named('channel', {
      Update: {
        TableName,
        Key: keys.channel(companyId, channelId),
        UpdateExpression: 'SET routingType = :type, routingTargetId = :target',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':type': routingType, ':target': targetId },
      },
    }),
    ...(targetKey
      ? [
          {
            ConditionCheck: {
              TableName,
              Key: targetKey,
              // A user removed from the company keeps their item (for history) but takes no calls.
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt)',
            },
          },
        ]
      : []),
  ]);
  if (!result.written) {
    if (result.failed('channel')) throw notFound('Channel not found');
    throw notFound(routingType === 'INBOX' ? 'Inbox not found' : 'User not found');
  }
  const targetName = targetKey
    ? ((await db.send(new GetCommand({ TableName, Key: targetKey }))).Item?.name as string | undefined)
    : undefined;
  return toChannel({ ...channel, routingType, routingTargetId: targetId }, targetName);
}
