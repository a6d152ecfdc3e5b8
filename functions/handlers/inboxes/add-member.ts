import { addInboxMember } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { addMember } from '../../settings/inboxes';
import { tellViewChanged } from '../../team/visibility-events';

export const handler = defineHandler(addInboxMember, async ({ principal, params, body }) => {
  const member = await addMember(principal.companyId, params.id, body.userId);
  // Their open tabs list the inbox's conversations at once (docs/product.md: Who sees what).
  await tellViewChanged(principal.companyId, [body.userId], 'INBOX_MEMBERSHIP');
  return { status: 201, data: { member } };
});
