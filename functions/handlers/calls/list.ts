import { listCalls } from '@shared/contract/calls';
import { defineHandler } from '../../lib/define-handler';
import { loadViewer } from '../../team/visibility';
import { listCalls as callsOf } from '../../voice/call-list';

export const handler = defineHandler(listCalls, async ({ principal, query }) => ({
  data: { calls: await callsOf(principal.companyId, query, await loadViewer(principal)) },
}));
