import { deleteContact as contract } from '@shared/contract/contacts';
import { deleteContact } from '../../contacts/contact-book';
import { defineHandler } from '../../lib/define-handler';
import { publish } from '../../realtime/publish';

export const handler = defineHandler(contract, async ({ principal, params }) => {
  await deleteContact(principal.companyId, params.id);
  // Its conversations show the number from now on, in every open tab (docs/product.md §10.5).
  await publish(principal.companyId, { type: 'contact_changed', data: { contactId: params.id, contact: null } });
  return { data: { id: params.id } };
});
