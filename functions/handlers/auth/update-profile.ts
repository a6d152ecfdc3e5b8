import { updateProfile } from '@shared/contract/account';
import { toUser } from '../../auth/accounts';
import { renameUser } from '../../auth/profile';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(updateProfile, async ({ principal, body }) => {
  const user = await renameUser(principal, body.name);
  return { data: { user: toUser(user) }, message: 'Your name was saved.' };
});
