import { updateContact as contract } from '@shared/contract/contacts';
import { toSharedContact, updateContact } from '../../contacts/contact-book';
import { defineHandler } from '../../lib/define-handler';
import { publish } from '../../realtime/publish';
import { loadViewer } from '../../team/visibility';

export const handler = defineHandler(contract, async ({ principal, params, body }) => {
  const contact = await updateContact(principal.companyId, params.id, body, await loadViewer(principal));
  // A rename shows at once in everyone's lists, threads and contact views (docs/product.md §10.5).
  await publish(principal.companyId, {
    type: 'contact_changed',
    data: { contactId: contact.id, contact: toSharedContact(contact) },
  });
  return { data: { contact } };
});
