import type { Channel, Inbox, Provider } from '../../shared/contract/settings';
import { type Account, callRoute } from './api';
import { endpoints } from './endpoints';
import { newTwilioAccount, numbersByKind, type TwilioAccount } from './twilio';

/**
 * A company with a connected Twilio account (a fresh one unless given) and its voice+SMS number imported
 * as a channel; `origin`: through a gateway of the test's own.
 */
export async function withChannel(
  account: Account,
  existing?: TwilioAccount,
  { origin }: { origin?: string } = {},
): Promise<{ provider: Provider; channel: Channel; twilio: TwilioAccount }> {
  const twilio = existing ?? (await newTwilioAccount());
  const { full } = numbersByKind(twilio);
  const connected = await callRoute(endpoints.connectTwilio, {
    token: account.tokens.accessToken,
    body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
    origin,
  });
  const provider = connected.body.data.provider;
  const imported = await callRoute(endpoints.importChannels, {
    params: { id: provider.id },
    token: account.tokens.accessToken,
    body: { numbers: [{ sid: full.sid, phoneNumber: full.phone_number, capabilities: { voice: true, sms: true } }] },
    origin,
  });
  const channel = imported.body.data.channels[0];
  if (!channel) throw new Error(`import failed: ${JSON.stringify(imported.body)}`);
  return { provider, channel, twilio };
}

export async function createInbox(account: Account, name = 'Support', description?: string): Promise<Inbox> {
  const res = await callRoute(endpoints.createInbox, { token: account.tokens.accessToken, body: { name, description } });
  if (res.status !== 201) throw new Error(`create inbox: ${JSON.stringify(res.body)}`);
  return res.body.data.inbox;
}
