import { sendMessage } from '@shared/contract/conversations';
import { sendSms } from '../../conversations/outbound-sms';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(sendMessage, async ({ principal, params, body }) => ({
  status: 201,
  data: { message: await sendSms(principal, params.id, body.body, body.pictureIds) },
}));
