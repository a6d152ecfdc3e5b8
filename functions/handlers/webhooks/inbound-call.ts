import { inboundCallWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { receiveCall } from '../../voice/inbound-call';

export const handler = defineWebhook(inboundCallWebhook, ({ provider, params }) =>
  receiveCall(provider, { callSid: params.CallSid, from: params.From, to: params.To }),
);
