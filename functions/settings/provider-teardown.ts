import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { logError } from '../lib/log';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { TwilioApiError, type TwilioClient } from '../twilio/rest-client';
import type { NumberImportRecord, ProviderRecord } from './records';
import { createdObjectName, restoreUpdate } from './twilio-account';

/**
 * Undoing what the platform did in a customer's Twilio account. Twilio failures (revoked credentials,
 * a number released meanwhile) are logged and do not stop the rest: a company can always leave.
 */

/** Runs vendor steps side by side; a step's failure other than "already gone" is logged. True when none failed so. */
export async function settle(context: { route: string; companyId: string; providerId: string }, steps: Promise<unknown>[]) {
  let settled = true;
  for (const result of await Promise.allSettled(steps)) {
    if (result.status === 'rejected' && !(result.reason instanceof TwilioApiError && result.reason.isNotFound)) {
      logError(context, result.reason);
      settled = false;
    }
  }
  return settled;
}

/**
 * Deletes the provider's API key and TwiML application: the recorded ones, and any named after the
 * provider (created by a connect that timed out before it could record them). True when Twilio
 * answered every step, so nothing of the provider's is known to be left there.
 */
export async function deleteCreatedObjects(provider: ProviderRecord, client: TwilioClient, route: string): Promise<boolean> {
  const name = createdObjectName(provider.id);
  const context = { route, companyId: provider.companyId, providerId: provider.id };
  let listed = true;
  const unlisted = (error: unknown) => {
    logError(context, error);
    listed = false;
    return [];
  };
  const [apps, apiKeys] = await Promise.all([client.listApplications().catch(unlisted), client.listKeys().catch(unlisted)]);
  const appSids = new Set([provider.twimlAppSid, ...apps.filter((a) => a.friendly_name === name).map((a) => a.sid)]);
  const keySids = new Set([provider.apiKeySid, ...apiKeys.filter((k) => k.friendly_name === name).map((k) => k.sid)]);
  const deleted = await settle(context, [
    ...[...appSids].filter((sid): sid is string => Boolean(sid)).map((sid) => client.deleteApplication(sid)),
    ...[...keySids].filter((sid): sid is string => Boolean(sid)).map((sid) => client.deleteKey(sid)),
  ]);
  return listed && deleted;
}

/** Puts back the numbers of imports that began but never finished, and forgets those imports. */
export async function restorePendingImports(provider: ProviderRecord, client: TwilioClient, route: string) {
  const pending = (await queryPrefix<NumberImportRecord>(keys.numberImportsOf(provider.companyId))).filter(
    (p) => p.providerId === provider.id,
  );
  await settle(
    { route, companyId: provider.companyId, providerId: provider.id },
    pending.map((p) => client.updateIncomingNumber(p.numberSid, restoreUpdate(p))),
  );
  await Promise.all(
    pending.map((p) =>
      db.send(new DeleteCommand({ TableName: tableName(), Key: keys.numberImport(provider.companyId, p.numberSid) })),
    ),
  );
}

/** Forgets the provider: its record, the one-per-type item and its webhook id. */
export async function deleteProviderItems(provider: ProviderRecord) {
  const TableName = tableName();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName, Key: keys.provider(provider.companyId, provider.id) } },
        { Delete: { TableName, Key: keys.providerType(provider.companyId, provider.type) } },
        { Delete: { TableName, Key: keys.webhook(provider.webhookId) } },
      ],
    }),
  );
}
