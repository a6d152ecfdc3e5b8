import { previewInvitation } from '../../../shared/contract/team';
import { defineHandler } from '../../lib/define-handler';
import { openInvitation, toPreview } from '../../team/invitations';

export const handler = defineHandler(previewInvitation, async ({ query }) => {
  const { invitation, company } = await openInvitation(query.token);
  return { data: { invitation: toPreview(invitation, company) } };
});
