import { contactTimeline as contract } from '@shared/contract/timeline';
import { contactTimeline } from '../../contacts/timeline';
import { defineHandler } from '../../lib/define-handler';
import { loadViewer } from '../../team/visibility';

export const handler = defineHandler(contract, async ({ principal, params, query }) => ({
  data: await contactTimeline({ ...(await loadViewer(principal)), companyId: principal.companyId }, params.id, query.cursor),
}));
