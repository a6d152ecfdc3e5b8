import { inboundSmsWebhook } from '@shared/contract/conversations';
import { mediaOfWebhook, receiveSms } from '../../conversations/inbound-sms';
import { defineWebhook } from '../../lib/define-webhook';

export const handler = defineWebhook(inboundSmsWebhook, ({ provider, params }) =>
  receiveSms(provider, {
    messageSid: params.MessageSid,
    from: params.From,
    to: params.To,
    body: params.Body,
    segments: params.NumSegments,
    media: mediaOfWebhook(params),
  }),
);
