import { previewInvitation } from '@shared/contract/team';
import { defineHandler } from '../../lib/define-handler';
import { openPreview, toPreview } from '../../team/invitations';

export const handler = defineHandler(previewInvitation, async ({ body }) => {
  const { invitation, company } = await openPreview(body.token);
  return { data: { invitation: toPreview(invitation, company) } };
});
