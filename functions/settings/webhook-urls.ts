import type { ChannelRecord, ProviderRecord } from './records';

/**
 * The URLs Twilio calls for a provider. Apart from the Twilio client and the secrets, so that a
 * webhook checking a signature needs neither the `twilio` nor the `appUrl` capability.
 */

/** Where Twilio calls the platform for one provider: `<base>/<webhookId>/sms` and friends (docs/architecture.md §3). */
export function webhookUrls(base: string, webhookId: string) {
  const root = `${base.replace(/\/$/, '')}/${webhookId}`;
  return {
    sms: `${root}/sms`,
    smsStatus: `${root}/sms/status`,
    voice: `${root}/voice`,
    voiceStatus: `${root}/voice/status`,
    dialResult: `${root}/voice/dial-result`,
    outboundVoice: `${root}/voice/outbound`,
  };
}

export type WebhookKind = keyof ReturnType<typeof webhookUrls>;

/**
 * The exact URL Twilio calls, and signs, for a webhook of this number or provider: built from the
 * base recorded when it was pointed at the platform, never from the app's current address.
 */
export function signedWebhookUrl(record: Pick<ProviderRecord, 'webhookBaseUrl' | 'webhookId'>, kind: WebhookKind): string {
  if (!record.webhookBaseUrl) throw new Error('No webhook base URL was recorded for this provider');
  return webhookUrls(record.webhookBaseUrl, record.webhookId)[kind];
}

/** The provider's active numbers, imported through it. */
export const numbersPointedBy = (provider: ProviderRecord, channels: ChannelRecord[]) =>
  channels.filter((c) => c.providerId === provider.id && c.status === 'ACTIVE' && c.numberSid);

/** What of a provider is recorded on another base than `base`: the provider (or its application), and how many numbers. */
export function pointingElsewhere(provider: ProviderRecord, channels: ChannelRecord[], base: string) {
  const appBase = provider.twimlAppWebhookBaseUrl ?? provider.webhookBaseUrl;
  return {
    provider: provider.webhookBaseUrl !== base || Boolean(provider.twimlAppSid && appBase !== base),
    numbers: numbersPointedBy(provider, channels).filter((c) => c.webhookBaseUrl !== base).length,
  };
}
