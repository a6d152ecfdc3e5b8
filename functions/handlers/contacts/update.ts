import { updateContact as contract } from '@shared/contract/contacts';
import { updateContact } from '../../contacts/contact-book';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(contract, async ({ principal, params, body }) => ({
  data: { contact: await updateContact(principal.companyId, params.id, body) },
}));
