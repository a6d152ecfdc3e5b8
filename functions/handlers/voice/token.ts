import { voiceToken } from '@shared/contract/voice';
import { defineHandler } from '../../lib/define-handler';
import { issueVoiceToken } from '../../voice/voice-token';

export const handler = defineHandler(voiceToken, async ({ principal }) => ({
  data: { token: await issueVoiceToken(principal.companyId, principal.userId) },
}));
