import { recordingStatusWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordCallRecordingStatus } from '../../voice/call-recording-status';
import { recordVoicemailOf } from '../../voice/voicemail';

export const handler = defineWebhook(recordingStatusWebhook, ({ provider, params, query }) => {
  const report = {
    callSid: params.CallSid,
    recordingSid: params.RecordingSid,
    recordingUrl: params.RecordingUrl,
    recordingStatus: params.RecordingStatus,
    recordingDuration: params.RecordingDuration,
  };
  // A call recording's callback names its call in the URL (docs/product.md: Call recording); else a voicemail's.
  return query.callSid
    ? recordCallRecordingStatus(provider.companyId, { ...report, callSid: query.callSid })
    : recordVoicemailOf(provider.companyId, report);
});
