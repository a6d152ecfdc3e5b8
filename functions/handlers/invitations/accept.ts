import { acceptInvitation } from '@shared/contract/team';
import { toCompany, toUser, touchLastActive } from '../../auth/accounts';
import { hashPassword } from '../../auth/passwords';
import { startSession } from '../../auth/sessions';
import { defineHandler } from '../../lib/define-handler';
import { publish } from '../../realtime/publish';
import { toTeamUser } from '../../settings/records';
import { acceptInvitation as accept, openInvitation } from '../../team/invitations';

/** Answers like login: the new user is signed in. */
export const handler = defineHandler(acceptInvitation, async ({ body }) => {
  // A dead link is refused before the costly password hash.
  await openInvitation(body.token);
  const { user, company, invitationId } = await accept(body.token, {
    name: body.name,
    passwordHash: await hashPassword(body.password),
  });
  const signedIn = await touchLastActive(user);
  // The Team page in every open tab moves them from Pending Invitations to the members (docs/product.md §2.16).
  await publish(company.id, { type: 'invitation_accepted', data: { invitationId, user: toTeamUser(signedIn) } });
  return {
    status: 201,
    data: { user: toUser(signedIn), company: toCompany(company), tokens: await startSession(signedIn) },
    message: `Welcome to ${company.name}.`,
  };
});
