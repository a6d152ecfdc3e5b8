import type { ProviderNumber } from '../../shared/contract/settings';
import { batchGetAll } from '../lib/batch-get';
import { keyIds, keys } from '../lib/table';
import type { TwilioIncomingNumber } from '../twilio/rest-client';
import { listChannelRecords } from './channels';
import { currentDestinations, NO_DESTINATIONS } from './current-destinations';
import { getConnectedProvider } from './providers';
import { capabilitiesOf, clientFor, fromTwilio } from './twilio-account';

/**
 * The numbers of the provider's Twilio account, each saying whether it is already a channel, was one
 * before (importing reactivates it), or is another company's channel (it cannot be imported here),
 * and where its calls and texts go now when that is outside Switchboard.
 */
export async function availableNumbers(companyId: string, providerId: string): Promise<ProviderNumber[]> {
  const provider = await getConnectedProvider(companyId, providerId);
  const client = await clientFor(provider);
  const [numbers, channels] = await Promise.all([
    client.listIncomingNumbers().catch((error) => fromTwilio(error, 'list the phone numbers')),
    listChannelRecords(companyId),
  ]);
  const byIdentifier = new Map(channels.map((c) => [c.identifier, c]));
  const [owners, applicationNames] = await Promise.all([
    numberOwners(numbers.map((n) => n.phone_number)),
    applicationNamesFor(client, numbers),
  ]);
  return numbers.map((n) => {
    const channel = byIdentifier.get(n.phone_number);
    const owner = owners.get(n.phone_number);
    const imported = channel?.status === 'ACTIVE';
    const inUseElsewhere = Boolean(owner && owner !== companyId);
    return {
      sid: n.sid,
      phoneNumber: n.phone_number,
      friendlyName: n.friendly_name,
      imported,
      previouslyImported: Boolean(channel && channel.status !== 'ACTIVE'),
      inUseElsewhere,
      capabilities: capabilitiesOf(n),
      // Only for a number this company may import: another company's webhooks are none of its business.
      ...(imported || inUseElsewhere ? NO_DESTINATIONS : currentDestinations(n, provider, applicationNames)),
    };
  });
}

/**
 * The names of the TwiML applications the numbers use, read only when some number uses one. Without
 * them (Twilio failed) the SIDs are still shown: the list itself matters more than the names.
 */
async function applicationNamesFor(
  client: Awaited<ReturnType<typeof clientFor>>,
  numbers: TwilioIncomingNumber[],
): Promise<Map<string, string>> {
  if (!numbers.some((n) => n.voice_application_sid || n.sms_application_sid)) return new Map();
  const applications = await client.listApplications().catch(() => []);
  return new Map(applications.map((a) => [a.sid, a.friendly_name]));
}

/** Which company each number is a channel of (the number index), in batches of 100 keys. */
async function numberOwners(phoneNumbers: string[]): Promise<Map<string, string>> {
  const items = await batchGetAll(phoneNumbers.map((n) => keys.number(n)));
  return new Map(items.map((item) => [keyIds.numberOf(String(item.PK)), String(item.companyId)]));
}
