import { adminOverview as contract } from '@shared/contract/admin';
import { adminOverview } from '../../admin/overview';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(contract, async ({ query }) => ({ data: await adminOverview(query.cursor) }));
