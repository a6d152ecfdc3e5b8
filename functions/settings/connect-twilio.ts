import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Provider } from '../../shared/contract/settings';
import { newId } from '../auth/opaque-tokens';
import { AppError, conflict } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { encryptSecret } from '../lib/secrets';
import { keys } from '../lib/table';
import { transact } from '../lib/transact';
import { twilioClient } from '../twilio/rest-client';
import { announceProviderChange } from './provider-events';
import { deleteCreatedObjects, deleteProviderItems } from './provider-teardown';
import { getProviderRecord, isConnected } from './providers';
import { type ProviderRecord, toProvider } from './records';
import { clientFor, createdObjectName, fromTwilio } from './twilio-account';
import { currentWebhookBase } from './webhook-base';
import { webhookUrls } from './webhook-urls';

const alreadyConnected = () => conflict('A Twilio account is already connected. Disconnect it first.');

/**
 * Checks the credentials against Twilio, then creates in the customer's account the API key (for voice
 * access tokens) and the TwiML application (outbound calls) the product needs. Retry-safe: the
 * provider is recorded as CONNECTING before anything is created in Twilio, and each object as soon as
 * it exists (named after the provider, in case its answer is lost), so a failure here, a timeout
 * that stops the function, or a later connect undoes the unfinished one.
 */
export async function connectTwilio(companyId: string, accountSid: string, authToken: string): Promise<Provider> {
  const TableName = tableName();
  const client = twilioClient({ accountSid, username: accountSid, password: authToken });
  await client.fetchAccount().catch((error) => fromTwilio(error, 'check the account'));

  const { Item: existing } = await db.send(
    new GetCommand({ TableName, Key: keys.providerType(companyId, 'TWILIO'), ConsistentRead: true }),
  );
  if (existing) {
    const unfinished = await getProviderRecord(companyId, existing.providerId).catch(() => undefined);
    if (!unfinished || isConnected(unfinished)) throw alreadyConnected();
    await undoConnect(unfinished, { keepRecordWhenUnsure: false });
  }

  const provider: ProviderRecord = {
    id: newId(),
    companyId,
    type: 'TWILIO',
    status: 'CONNECTING',
    accountSid,
    authTokenEncrypted: await encryptSecret(authToken, companyId),
    webhookId: randomBytes(18).toString('base64url'),
    webhookBaseUrl: await currentWebhookBase(),
    createdAt: new Date().toISOString(),
  };
  const result = await transact([
    {
      Put: {
        TableName,
        Item: { ...keys.providerType(companyId, 'TWILIO'), entity: 'PROVIDER_TYPE', providerId: provider.id },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    { Put: { TableName, Item: { ...keys.provider(companyId, provider.id), entity: 'PROVIDER', ...provider } } },
    {
      Put: {
        TableName,
        // With what checking a webhook's signature needs, so that a webhook reads one item.
        Item: {
          ...keys.webhook(provider.webhookId),
          entity: 'WEBHOOK',
          companyId,
          providerId: provider.id,
          authTokenEncrypted: provider.authTokenEncrypted,
          webhookBaseUrl: provider.webhookBaseUrl,
        },
      },
    },
  ]);
  if (!result.written) throw alreadyConnected();

  try {
    const name = createdObjectName(provider.id);
    const key = await client.createKey(name).catch((error) => fromTwilio(error, 'create an API key'));
    provider.apiKeySid = key.sid;
    provider.apiKeySecretEncrypted = await encryptSecret(key.secret, companyId);
    await record(provider, { apiKeySid: key.sid, apiKeySecretEncrypted: provider.apiKeySecretEncrypted });

    const urls = webhookUrls(provider.webhookBaseUrl as string, provider.webhookId);
    const app = await client
      .createApplication({ FriendlyName: name, VoiceUrl: urls.outboundVoice, VoiceMethod: 'POST' })
      .catch((error) => fromTwilio(error, 'create the TwiML application'));
    provider.twimlAppSid = app.sid;
    await record(provider, { twimlAppSid: app.sid, status: 'CONNECTED' });
    await announceProviderChange(companyId, provider.id, true);
    return toProvider({ ...provider, status: 'CONNECTED' }, 0);
  } catch (error) {
    // A create Twilio did not answer may still happen: the record stays (hidden, CONNECTING) so the
    // next connect or a disconnect finds and removes what it made.
    const outcomeUnknown = error instanceof AppError && error.code === 'PROVIDER_TIMEOUT';
    await undoConnect(provider, { keepRecordWhenUnsure: true, outcomeUnknown });
    throw error;
  }
}

function record(provider: ProviderRecord, fields: Partial<ProviderRecord>) {
  const names = Object.keys(fields);
  return db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.provider(provider.companyId, provider.id),
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n as keyof ProviderRecord]])),
    }),
  );
}

/**
 * Removes an unfinished connect: what it created in Twilio, then its records. With
 * `keepRecordWhenUnsure`, the records stay while Twilio may still hold something of it (a step
 * failed, or a create went unanswered), else a key or an application could be left with nothing
 * that remembers it.
 */
export async function undoConnect(
  provider: ProviderRecord,
  options: { keepRecordWhenUnsure: boolean; outcomeUnknown?: boolean },
) {
  const clean = await deleteCreatedObjects(provider, await clientFor(provider), 'connectTwilio');
  if (options.keepRecordWhenUnsure && (!clean || options.outcomeUnknown)) return;
  await deleteProviderItems(provider);
}
