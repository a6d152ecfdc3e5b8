import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PHONE_READY_LAPSE_SECONDS } from '../../shared/constants';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import type { Connection } from './connections';
import { userIsReady } from './phone-readiness';
import { publish } from './publish';

/**
 * A tab's `device_state`: its socket's phone registered (kept for the lapse from now) or not
 * (forgotten). The company hears `phone_status_changed` when the member's reachability changed.
 */
export async function reportDeviceState(connection: Connection, registered: boolean): Promise<void> {
  const { companyId, userId, connectionId } = connection;
  const now = epochSeconds();
  const before = await userIsReady(companyId, userId, now);
  const TableName = tableName();
  const Key = keys.phoneReady(companyId, userId, connectionId);
  if (registered) {
    await db.send(
      new PutCommand({
        TableName,
        Item: { ...Key, entity: 'PHONE_READY', userId, connectionId, expiresAt: now + PHONE_READY_LAPSE_SECONDS },
      }),
    );
  } else await db.send(new DeleteCommand({ TableName, Key }));
  const after = registered || (await userIsReady(companyId, userId, now));
  if (after !== before) await publish(companyId, { type: 'phone_status_changed', data: { userId, phoneReady: after } });
}

/**
 * A socket whose phone was reachable closed (its item is gone with it: connections.ts): the company
 * hears it when that was the member's last reachable phone.
 */
export async function announcePhoneGone(connection: Connection): Promise<void> {
  const { companyId, userId } = connection;
  if (!(await userIsReady(companyId, userId, epochSeconds())))
    await publish(companyId, { type: 'phone_status_changed', data: { userId, phoneReady: false } });
}
