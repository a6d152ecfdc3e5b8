import { callRecordingAudio } from '@shared/contract/calls';
import { defineHandler } from '../../lib/define-handler';
import { countFetch, recordingFetchLimit } from '../../lib/member-limits';
import { loadViewer } from '../../team/visibility';
import { callRecordingAudio as recordingOfCall } from '../../voice/call-recording';

export const handler = defineHandler(callRecordingAudio, async ({ principal, params }) => {
  await countFetch(recordingFetchLimit, principal);
  return recordingOfCall({ ...(await loadViewer(principal)), companyId: principal.companyId }, params.callId);
});
