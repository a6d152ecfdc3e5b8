import { retryMessage } from '@shared/contract/conversations';
import { retrySms } from '../../conversations/outbound-sms';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(retryMessage, async ({ principal, params }) => ({
  data: { message: await retrySms(principal.companyId, params.id, params.messageId) },
}));
