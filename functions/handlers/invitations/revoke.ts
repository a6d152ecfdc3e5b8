import { revokeInvitation } from '@shared/contract/team';
import { defineHandler } from '../../lib/define-handler';
import { publish } from '../../realtime/publish';
import { revokeInvitation as revoke, toInvitation } from '../../team/invitations';

export const handler = defineHandler(revokeInvitation, async ({ principal, params }) => {
  const invitation = await revoke(principal.companyId, params.id);
  // It leaves every open Team page's Pending Invitations (docs/product.md §2.16).
  await publish(principal.companyId, { type: 'invitation_changed', data: { invitationId: invitation.id, invitation: null } });
  return { data: { invitation: toInvitation(invitation) } };
});
