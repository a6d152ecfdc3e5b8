import { logoutAll } from '@shared/contract/auth';
import { endAllSessions } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(logoutAll, async ({ principal }) => {
  await endAllSessions(principal.companyId, principal.userId);
  return { data: {} };
});
