// The schema-free descriptors: the ring's webhooks and the socket's reject_call build this TwiML.
import { recordingStatusWebhook, voicemailRecordedWebhook } from '../../shared/contract/endpoints/voice';
import { voicemailGreeting } from '../company/calling-settings';
import type { ProviderRecord } from '../settings/records';
import { signedWebhookUrl } from '../settings/webhook-urls';
import { recordVoicemail } from './twiml';

/** The TwiML that takes a voicemail, its webhooks on the base Twilio signs for this provider. */
export async function takeVoicemail(
  provider: Pick<ProviderRecord, 'companyId' | 'webhookBaseUrl' | 'webhookId'>,
): Promise<string> {
  return recordVoicemail(await voicemailGreeting(provider.companyId), {
    action: signedWebhookUrl(provider, voicemailRecordedWebhook),
    recordingStatusCallback: signedWebhookUrl(provider, recordingStatusWebhook),
  });
}
