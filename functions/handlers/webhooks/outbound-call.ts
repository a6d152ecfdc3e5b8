import { outboundCallWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { placeCall } from '../../voice/outbound-call';

export const handler = defineWebhook(outboundCallWebhook, ({ provider, params }) =>
  placeCall(provider, { callSid: params.CallSid, caller: params.Caller, from: params.From, to: params.To }),
);
