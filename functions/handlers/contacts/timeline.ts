import { contactTimeline as contract } from '@shared/contract/timeline';
import { contactTimeline } from '../../contacts/timeline';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(contract, async ({ principal, params, query }) => ({
  data: await contactTimeline(principal.companyId, params.id, query.cursor),
}));
