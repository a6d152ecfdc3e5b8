import { listContacts as contract } from '@shared/contract/contacts';
import { listContacts } from '../../contacts/contact-book';
import { defineHandler } from '../../lib/define-handler';
import { loadViewer } from '../../team/visibility';

export const handler = defineHandler(contract, async ({ principal, query }) => ({
  data: { contacts: await listContacts(principal.companyId, query, await loadViewer(principal)) },
}));
