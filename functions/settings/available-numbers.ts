import type { ProviderNumber } from '../../shared/contract/settings';
import { listChannelRecords } from './channels';
import { getConnectedProvider } from './providers';
import { capabilitiesOf, clientFor, fromTwilio } from './twilio-account';

/** The numbers of the provider's Twilio account, each saying whether it is already a channel. */
export async function availableNumbers(companyId: string, providerId: string): Promise<ProviderNumber[]> {
  const provider = await getConnectedProvider(companyId, providerId);
  const client = await clientFor(provider);
  const [numbers, channels] = await Promise.all([
    client.listIncomingNumbers().catch((error) => fromTwilio(error, 'list the phone numbers')),
    listChannelRecords(companyId),
  ]);
  const imported = new Set(channels.filter((c) => c.status === 'ACTIVE').map((c) => c.identifier));
  return numbers.map((n) => ({
    sid: n.sid,
    phoneNumber: n.phone_number,
    friendlyName: n.friendly_name,
    imported: imported.has(n.phone_number),
    capabilities: capabilitiesOf(n),
  }));
}
