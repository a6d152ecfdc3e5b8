import { repointWebhooks as contract } from '@shared/contract/admin';
import { repointWebhooks } from '../../admin/repoint-webhooks';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(contract, async ({ body }) => {
  const repoint = await repointWebhooks(body.cursor);
  return {
    data: { repoint },
    message: repoint.nextCursor ? 'Re-pointing is under way: send the cursor to go on.' : 'Every company was visited.',
  };
});
