import { updateUserRole } from '@shared/contract/team';
import { defineHandler } from '../../lib/define-handler';
import { changeRole } from '../../team/members';

export const handler = defineHandler(updateUserRole, async ({ principal, params, body }) => {
  const id = params.id;
  await changeRole(principal, id, body.role);
  return { data: { user: { id, role: body.role } } };
});
