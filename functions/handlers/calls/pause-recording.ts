import { pauseCallRecording } from '@shared/contract/calls';
import { defineHandler } from '../../lib/define-handler';
import { pauseRecording } from '../../voice/call-recording';

export const handler = defineHandler(pauseCallRecording, async ({ principal, params, body }) => ({
  data: { recording: await pauseRecording(principal, params.callId, body.paused) },
}));
