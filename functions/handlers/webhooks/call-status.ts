import { callStatusWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { recordOnAnswer } from '../../voice/call-recording';
import { recordCallStatus } from '../../voice/call-status';
import { hangUpConferenceParties, moveAnsweredLeg } from '../../voice/conference-move';

export const handler = defineWebhook(callStatusWebhook, async ({ provider, params }) => {
  const report = {
    callSid: params.CallSid,
    parentCallSid: params.ParentCallSid,
    callStatus: params.CallStatus,
    callDuration: params.CallDuration,
    to: params.To,
  };
  const changed = await recordCallStatus(provider.companyId, report);
  // A recording line's call is recorded from its answer (docs/product.md: Call recording), then the
  // answered leg moves into the call's conference (docs/architecture.md: Calls in a conference).
  if (changed) await recordOnAnswer(provider.companyId, changed.before, changed.after);
  await moveAnsweredLeg(changed?.after, report);
  await hangUpConferenceParties(changed?.before, changed?.after);
});
