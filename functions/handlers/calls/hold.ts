import { holdCall } from '@shared/contract/call-controls';
import { defineHandler } from '../../lib/define-handler';
import { loadViewer } from '../../team/visibility';
import { holdCall as hold } from '../../voice/hold';

export const handler = defineHandler(holdCall, async ({ principal, params, body }) => ({
  data: { call: await hold({ ...(await loadViewer(principal)), companyId: principal.companyId }, params.callId, body.held) },
}));
