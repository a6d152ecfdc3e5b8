import { createContact as contract } from '@shared/contract/contacts';
import { createContact } from '../../contacts/contact-book';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(contract, async ({ principal, body }) => ({
  data: { contact: await createContact(principal.companyId, body) },
  status: 201,
}));
