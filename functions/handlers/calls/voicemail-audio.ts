import { voicemailAudio } from '@shared/contract/calls';
import { defineHandler } from '../../lib/define-handler';
import { countFetch, recordingFetchLimit } from '../../lib/member-limits';
import { loadViewer } from '../../team/visibility';
import { voicemailRecording } from '../../voice/voicemail-audio';

export const handler = defineHandler(voicemailAudio, async ({ principal, params }) => {
  await countFetch(recordingFetchLimit, principal);
  return voicemailRecording({ ...(await loadViewer(principal)), companyId: principal.companyId }, params.id);
});
