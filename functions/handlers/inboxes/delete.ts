import { deleteInbox } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { queryPrefix } from '../../lib/query';
import { keys } from '../../lib/table';
import { deleteInbox as remove } from '../../settings/inboxes';
import { tellViewChanged } from '../../team/visibility-events';

export const handler = defineHandler(deleteInbox, async ({ principal, params }) => {
  const { companyId } = principal;
  const members = await queryPrefix<{ userId: string }>(keys.inboxMembersOf(companyId, params.id), { projection: 'userId' });
  const inbox = await remove(companyId, params.id);
  // Its members no longer see what comes in on its numbers (docs/product.md: Who sees what).
  await tellViewChanged(
    companyId,
    members.map((m) => m.userId),
    'INBOX_MEMBERSHIP',
  );
  return { data: { inbox } };
});
