import { callRecordingStatusWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordCallRecordingStatus } from '../../voice/call-recording-status';

export const handler = defineWebhook(callRecordingStatusWebhook, ({ provider, params, query }) =>
  recordCallRecordingStatus(provider.companyId, {
    callSid: query.callSid ?? params.CallSid,
    recordingSid: params.RecordingSid,
    recordingUrl: params.RecordingUrl,
    recordingStatus: params.RecordingStatus,
    recordingDuration: params.RecordingDuration,
  }),
);
