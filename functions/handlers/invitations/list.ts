import { listInvitations } from '@shared/contract/team';
import { defineHandler } from '../../lib/define-handler';
import { listInvitations as list, toInvitation } from '../../team/invitations';

export const handler = defineHandler(listInvitations, async ({ principal }) => {
  const invitations = await list(principal.companyId);
  return { data: { invitations: invitations.map(toInvitation) } };
});
