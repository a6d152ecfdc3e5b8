import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ROOM_KINDS, type RoomKind } from '../../shared/contract/realtime';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';

/** How each kind of room finds its subject in a company; the call issue adds `call`. */
const SUBJECTS: Record<RoomKind, (companyId: string, id: string) => Record<string, string>> = {
  conversation: keys.conversation,
};

/**
 * Whether `kind:id` names something of this company. Another company's room is answered exactly like
 * one that does not exist, so ids of other companies cannot be probed.
 */
export async function roomOfCompany(companyId: string, room: string): Promise<boolean> {
  const [kind, id] = room.split(':') as [string, string];
  if (!(ROOM_KINDS as readonly string[]).includes(kind)) return false;
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: SUBJECTS[kind as RoomKind](companyId, id), ProjectionExpression: 'PK' }),
  );
  return Item !== undefined;
}
