import { callStatusWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordOnAnswer } from '../../voice/call-recording';
import { recordCallStatus } from '../../voice/call-status';

export const handler = defineWebhook(callStatusWebhook, async ({ provider, params }) => {
  const changed = await recordCallStatus(provider.companyId, {
    callSid: params.CallSid,
    parentCallSid: params.ParentCallSid,
    callStatus: params.CallStatus,
    callDuration: params.CallDuration,
    to: params.To,
  });
  // A recording line's call is recorded from its answer (docs/product.md: Call recording).
  if (changed) await recordOnAnswer(provider.companyId, changed.before, changed.after);
});
