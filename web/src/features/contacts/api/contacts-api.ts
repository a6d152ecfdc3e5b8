import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CONTACTS_LIST_LIMIT } from '../../../../../shared/constants';
import type { Contact } from '../../../../../shared/contract/contacts';
import { api } from '../../../lib/services';

export interface ContactFields {
  name: string;
  email: string;
  notes: string;
}

export interface NewContact extends ContactFields {
  phoneNumber: string;
}

const contactsKey = ['contacts'] as const;
const contactPath = (id: string) => `/contacts/${encodeURIComponent(id)}`;

export const fetchContacts = (search: string) =>
  api.get<{ contacts: Contact[] }>('/contacts', { query: { search, limit: CONTACTS_LIST_LIMIT } }).then((d) => d.contacts);

export const createContact = (contact: NewContact) => api.post<{ contact: Contact }>('/contacts', contact).then((d) => d.contact);

/** docs/product.md §5: the number is never sent when editing. */
export const updateContact = ({ id, ...fields }: ContactFields & { id: string }) =>
  api.request<{ contact: Contact }>(contactPath(id), { method: 'PUT', body: fields }).then((r) => r.data.contact);

export const deleteContact = (id: string) => api.request<{ id: string }>(contactPath(id), { method: 'DELETE' });

export function useContacts(search: string) {
  return useQuery({
    queryKey: [...contactsKey, search],
    queryFn: () => fetchContacts(search),
    // The table stays while the next search loads, so typing does not flash it away.
    placeholderData: keepPreviousData,
  });
}

function useContactMutation<A, R>(mutationFn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
    retry: false,
  });
}

export const useCreateContact = () => useContactMutation(createContact);
export const useUpdateContact = () => useContactMutation(updateContact);
export const useDeleteContact = () => useContactMutation(deleteContact);
