import type { ProviderRecord } from './records';

/**
 * The URLs Twilio calls for a provider. Apart from the Twilio client and the secrets, so that a
 * webhook checking a signature needs neither the `twilio` nor the `appUrl` capability.
 */

/** Where Twilio calls the platform for one provider: `<base>/<webhookId>/sms` and friends (DESIGN §3). */
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
