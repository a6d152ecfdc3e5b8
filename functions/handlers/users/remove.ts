import { removeUser } from '@shared/contract/team';
import { defineHandler } from '../../lib/define-handler';
import { removeUser as remove } from '../../team/members';

export const handler = defineHandler(removeUser, async ({ principal, params }) => {
  const id = params.id;
  await remove(principal, id);
  return { data: { user: { id } } };
});
