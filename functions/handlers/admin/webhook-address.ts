import { webhookAddress as contract } from '@shared/contract/admin';
import { webhookAddress } from '../../admin/webhook-address';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(contract, async () => ({ data: { webhookAddress: await webhookAddress() } }));
