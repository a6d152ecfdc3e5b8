import { listCallerIds } from '@shared/contract/voice';
import { defineHandler } from '../../lib/define-handler';
import { listCallerIds as callerIdsOf } from '../../voice/caller-ids';

export const handler = defineHandler(listCallerIds, async ({ principal }) => ({
  data: { callerIds: await callerIdsOf(principal.companyId, principal.userId) },
}));
