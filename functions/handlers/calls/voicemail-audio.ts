import { voicemailAudio } from '@shared/contract/calls';
import { defineHandler } from '../../lib/define-handler';
import { voicemailRecording } from '../../voice/voicemail-audio';

export const handler = defineHandler(voicemailAudio, ({ principal, params }) =>
  voicemailRecording(principal.companyId, params.id),
);
