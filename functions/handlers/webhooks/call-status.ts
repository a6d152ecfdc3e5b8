import { callStatusWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordCallStatus } from '../../voice/call-status';
import { moveAnsweredLeg } from '../../voice/conference-move';

export const handler = defineWebhook(callStatusWebhook, async ({ provider, params }) => {
  const report = {
    callSid: params.CallSid,
    parentCallSid: params.ParentCallSid,
    callStatus: params.CallStatus,
    callDuration: params.CallDuration,
    to: params.To,
  };
  await moveAnsweredLeg(await recordCallStatus(provider.companyId, report), report);
});
