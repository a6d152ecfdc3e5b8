// The schema-free descriptors: only the paths are needed (socket handlers build these URLs too).
import { inboundSmsWebhook, smsStatusWebhook } from '../../shared/contract/endpoints/conversations';
import {
  callStatusWebhook,
  dialResultWebhook,
  inboundCallWebhook,
  outboundCallWebhook,
  recordingStatusWebhook,
  voicemailRecordedWebhook,
} from '../../shared/contract/endpoints/voice';
import { fillPath, TWILIO_WEBHOOKS, type TwilioWebhookPath } from '../../shared/contract/route';
import type { ChannelRecord, ProviderRecord } from './records';

/**
 * The URLs Twilio calls for a provider, from the webhook contracts' paths. Apart from the Twilio
 * client and the secrets, so that a webhook checking a signature needs neither the `twilio` nor the
 * `appUrl` capability.
 */

/** A webhook's URL on a base (`<origin>/webhooks/twilio`): `<base>/<webhookId>/sms` and friends (docs/architecture.md §3). */
export function webhookUrl(base: string, webhookId: string, webhook: { path: TwilioWebhookPath }): string {
  return `${base.replace(/\/$/, '')}${fillPath(webhook.path, { webhookId }).slice(TWILIO_WEBHOOKS.length)}`;
}

/** Every URL Twilio is given for one provider, by where it is given. */
export function webhookUrls(base: string, webhookId: string) {
  const url = (webhook: { path: TwilioWebhookPath }) => webhookUrl(base, webhookId, webhook);
  return {
    sms: url(inboundSmsWebhook),
    smsStatus: url(smsStatusWebhook),
    voice: url(inboundCallWebhook),
    voiceStatus: url(callStatusWebhook),
    dialResult: url(dialResultWebhook),
    outboundVoice: url(outboundCallWebhook),
    // Given in the voicemail TwiML of a call nobody answered (voicemail-twiml.ts).
    voicemail: url(voicemailRecordedWebhook),
    recordingStatus: url(recordingStatusWebhook),
  };
}

/**
 * The exact URL Twilio calls, and signs, for a webhook of this number or provider: built from the
 * base recorded when it was pointed at the platform, never from the app's current address.
 */
export function signedWebhookUrl(
  record: Pick<ProviderRecord, 'webhookBaseUrl' | 'webhookId'>,
  webhook: { path: TwilioWebhookPath },
): string {
  if (!record.webhookBaseUrl) throw new Error('No webhook base URL was recorded for this provider');
  return webhookUrl(record.webhookBaseUrl, record.webhookId, webhook);
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
