import { callStatusWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordCallStatus } from '../../voice/call-status';

export const handler = defineWebhook(callStatusWebhook, ({ provider, params }) =>
  recordCallStatus(provider.companyId, {
    callSid: params.CallSid,
    parentCallSid: params.ParentCallSid,
    callStatus: params.CallStatus,
    callDuration: params.CallDuration,
    to: params.To,
  }),
);
