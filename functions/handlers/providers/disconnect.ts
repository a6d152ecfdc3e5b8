import { disconnectProvider } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { disconnectProvider as disconnect } from '../../settings/disconnect-provider';

export const handler = defineHandler(disconnectProvider, async ({ principal, params }) => ({
  data: { provider: await disconnect(principal.companyId, params.id) },
}));
