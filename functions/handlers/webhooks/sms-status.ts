import { smsStatusWebhook } from '@shared/contract/conversations';
import { recordDeliveryStatus } from '../../conversations/delivery-status';
import { defineWebhook } from '../../lib/define-webhook';

export const handler = defineWebhook(smsStatusWebhook, ({ provider, params, query }) =>
  recordDeliveryStatus(
    provider,
    {
      messageSid: params.MessageSid,
      messageStatus: params.MessageStatus,
      errorCode: params.ErrorCode,
      segments: params.NumSegments,
    },
    query,
  ),
);
