import { deleteContact as contract } from '@shared/contract/contacts';
import { deleteContact } from '../../contacts/contact-book';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(contract, async ({ principal, params }) => {
  await deleteContact(principal.companyId, params.id);
  return { data: { id: params.id } };
});
