import { connectTwilio } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { connectTwilio as connect } from '../../settings/connect-twilio';

export const handler = defineHandler(connectTwilio, async ({ principal, body }) => ({
  status: 201,
  data: { provider: await connect(principal.companyId, body.accountSid, body.authToken) },
}));
