import { resendInvitation } from '@shared/contract/team';
import { getCompany } from '../../auth/accounts';
import { defineHandler } from '../../lib/define-handler';
import { consume } from '../../lib/throttle';
import { publish } from '../../realtime/publish';
import { sendInvitationMail } from '../../team/invitation-mail';
import { invitationMailsPerCompany, renewInvitation, toInvitation } from '../../team/invitations';

export const handler = defineHandler(resendInvitation, async ({ principal, params }) => {
  await consume(invitationMailsPerCompany, principal.companyId);
  const [{ invitation, token }, company] = await Promise.all([
    renewInvitation(principal.companyId, params.id),
    getCompany(principal.companyId),
  ]);
  await sendInvitationMail({
    to: invitation.email,
    inviterName: invitation.invitedByName,
    companyName: company?.name ?? '',
    role: invitation.role,
    token,
  });
  const renewed = toInvitation(invitation);
  // Its new expiry reaches every open Team page (docs/product.md §2.16).
  await publish(principal.companyId, { type: 'invitation_changed', data: { invitationId: renewed.id, invitation: renewed } });
  return { data: { invitation: renewed }, message: `Invitation sent again to ${invitation.email}.` };
});
