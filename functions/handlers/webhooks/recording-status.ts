import { recordingStatusWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordVoicemailOf } from '../../voice/voicemail';

export const handler = defineWebhook(recordingStatusWebhook, ({ provider, params }) =>
  recordVoicemailOf(provider.companyId, {
    callSid: params.CallSid,
    recordingSid: params.RecordingSid,
    recordingUrl: params.RecordingUrl,
    recordingStatus: params.RecordingStatus,
    recordingDuration: params.RecordingDuration,
  }),
);
