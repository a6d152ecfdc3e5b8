import { removeInboxMember } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { removeMember } from '../../settings/inboxes';
import { tellViewChanged } from '../../team/visibility-events';

export const handler = defineHandler(removeInboxMember, async ({ principal, params }) => {
  const member = await removeMember(principal.companyId, params.id, params.userId);
  // Their view goes at once: open tabs drop the inbox's conversations and close its open thread
  // (docs/product.md: Who sees what).
  await tellViewChanged(principal.companyId, [params.userId], 'INBOX_MEMBERSHIP');
  return { data: { member } };
});
