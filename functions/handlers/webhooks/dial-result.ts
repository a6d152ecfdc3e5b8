import { dialResultWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordDialResult } from '../../voice/call-status';

export const handler = defineWebhook(dialResultWebhook, ({ provider, params }) =>
  recordDialResult(provider, {
    callSid: params.CallSid,
    dialCallStatus: params.DialCallStatus,
    dialCallDuration: params.DialCallDuration,
  }),
);
