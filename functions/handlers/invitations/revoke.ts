import { revokeInvitation } from '@shared/contract/team';
import { defineHandler } from '../../lib/define-handler';
import { revokeInvitation as revoke, toInvitation } from '../../team/invitations';

export const handler = defineHandler(revokeInvitation, async ({ principal, params }) => {
  const invitation = await revoke(principal.companyId, params.id);
  return { data: { invitation: toInvitation(invitation) } };
});
