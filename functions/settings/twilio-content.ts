import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_MEDIA_ANSWER_BYTES } from '../../shared/constants';
import { AppError, notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { TwilioApiError, type TwilioContent, TwilioContentTooLarge, twilioApiPath } from '../twilio/rest-client';
import type { ProviderRecord } from './records';
import { clientFor, fromTwilio } from './twilio-account';

/** The company's connected Twilio provider, if any. */
export async function companyProvider(companyId: string): Promise<ProviderRecord | undefined> {
  const TableName = tableName();
  const { Item: type } = await db.send(new GetCommand({ TableName, Key: keys.providerType(companyId, 'TWILIO') }));
  if (!type) return undefined;
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.provider(companyId, type.providerId as string) }));
  return Item as ProviderRecord | undefined;
}

const MEGABYTES = MAX_MEDIA_ANSWER_BYTES / (1024 * 1024);

/**
 * Bytes Twilio keeps for the company (a picture of a text, a voicemail's recording), fetched with its
 * credentials (decrypted here) from the path of the URL Twilio gave in a signed webhook — never a
 * URL of the request — plus `suffix` (`.wav`). At most MAX_MEDIA_ANSWER_BYTES: a function's answer
 * cannot carry more (413). Gone from Twilio, or no Twilio account any more: 404.
 */
export async function contentFromTwilio(
  companyId: string,
  storedUrl: string,
  what: { name: string; suffix?: string },
): Promise<TwilioContent> {
  const path = twilioApiPath(storedUrl);
  const provider = path ? await companyProvider(companyId) : undefined;
  if (!path || !provider) throw notFound(`This ${what.name} is not available.`);
  try {
    const client = await clientFor(provider);
    return await client.fetchContent(`${path}${what.suffix ?? ''}`, MAX_MEDIA_ANSWER_BYTES);
  } catch (error) {
    if (error instanceof TwilioContentTooLarge) {
      throw new AppError(
        413,
        'PAYLOAD_TOO_LARGE',
        `This ${what.name} is larger than ${MEGABYTES} MB and cannot be shown here. It is still in your Twilio account.`,
      );
    }
    if (error instanceof TwilioApiError && error.isNotFound)
      throw notFound(`This ${what.name} is no longer in your Twilio account.`);
    return fromTwilio(error, `send this ${what.name}`);
  }
}
