import { createInvitation } from '@shared/contract/team';
import { getActiveUser, getCompany } from '../../auth/accounts';
import { defineHandler } from '../../lib/define-handler';
import { consume } from '../../lib/throttle';
import { publish } from '../../realtime/publish';
import { sendInvitationMail } from '../../team/invitation-mail';
import { checkMayInvite, createInvitation as create, invitationMailsPerCompany, toInvitation } from '../../team/invitations';

export const handler = defineHandler(createInvitation, async ({ body, principal }) => {
  checkMayInvite(principal.role, body.role);
  await consume(invitationMailsPerCompany, principal.companyId);
  const [inviter, company] = await Promise.all([
    getActiveUser(principal.companyId, principal.userId),
    getCompany(principal.companyId),
  ]);
  const { invitation, token } = await create({
    companyId: principal.companyId,
    inviter: { id: principal.userId, name: inviter?.name ?? '', role: principal.role },
    email: body.email,
    role: body.role,
  });
  await sendInvitationMail({
    to: invitation.email,
    inviterName: invitation.invitedByName,
    companyName: company?.name ?? '',
    role: invitation.role,
    token,
  });
  const sent = toInvitation(invitation);
  // Every open Team page lists it at once (docs/product.md §2.16); one it replaced leaves with it.
  await publish(principal.companyId, { type: 'invitation_changed', data: { invitationId: sent.id, invitation: sent } });
  return { status: 201, data: { invitation: sent }, message: `Invitation sent to ${invitation.email}.` };
});
