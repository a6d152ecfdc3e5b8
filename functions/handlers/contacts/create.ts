import { createContact as contract } from '@shared/contract/contacts';
import { createContact, toSharedContact } from '../../contacts/contact-book';
import { defineHandler } from '../../lib/define-handler';
import { publish } from '../../realtime/publish';
import { loadViewer } from '../../team/visibility';

export const handler = defineHandler(contract, async ({ principal, body }) => {
  const contact = await createContact(principal.companyId, body, await loadViewer(principal));
  // Everyone's open contact lists show it (docs/product.md §10.5).
  await publish(principal.companyId, {
    type: 'contact_changed',
    data: { contactId: contact.id, contact: toSharedContact(contact) },
  });
  return { data: { contact }, status: 201 };
});
