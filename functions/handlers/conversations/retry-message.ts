import { retryMessage } from '@shared/contract/conversations';
import { retrySms } from '../../conversations/outbound-sms';
import { defineHandler } from '../../lib/define-handler';

/** A text sent again as itself answers 200; one sent again as a new message answers 201 with it (docs/product.md: Retry). */
export const handler = defineHandler(retryMessage, async ({ principal, params }) => {
  const { message, created } = await retrySms(principal, params.id, params.messageId);
  return { data: { message }, ...(created ? { status: 201 } : {}) };
});
